/**
 * Asks `check` every 20 ms until it holds or `ms` have passed; says whether it held. For what an
 * announcement makes true a moment later (PostgreSQL's NOTIFY reaching the listening connection).
 */
export async function eventually(check: () => Promise<boolean>, ms = 3_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
