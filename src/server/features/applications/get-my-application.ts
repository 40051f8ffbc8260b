import type { AppDeps } from '../../deps';

export const OPEN_STATUSES = ['pending', 'approved', 'on_hold'] as const;

/** The borrower's newest application (any status), and whether they may apply again. */
export async function getMyApplication(deps: AppDeps, borrowerId: string) {
  const latest = await deps.db
    .selectFrom('applications')
    .selectAll()
    .where('borrower_id', '=', borrowerId)
    .orderBy('submitted_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const open = await deps.db
    .selectFrom('applications')
    .select('id')
    .where('borrower_id', '=', borrowerId)
    .where('status', 'in', OPEN_STATUSES)
    .executeTakeFirst();
  return { application: latest ?? null, canApply: !open };
}
