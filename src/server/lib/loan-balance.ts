import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Money already taken from a loan: every disbursement that was requested or paid. A failed payout gives
 * its amount back. Balances are always derived from these records, never stored (SPEC principle 4).
 */
export async function withdrawnMinor(db: Kysely<Database> | Transaction<Database>, applicationId: string) {
  const row = await db
    .selectFrom('disbursements')
    .select(sql<number>`coalesce(sum(amount), 0)`.as('withdrawn'))
    .where('application_id', '=', applicationId)
    .where('status', 'in', ['requested', 'paid'])
    .executeTakeFirstOrThrow();
  return Number(row.withdrawn);
}
