import { type Kysely, sql } from 'kysely';

/**
 * The Repayments list's search by loan number ("contains", dashes aside: `lib/loan-number-search.ts`) and
 * by payment reference finds its matches through trigram indexes (issue #35). Without them the list walked
 * all 1.87 M repayments of the 1 M-application bench, newest first, testing each one's loan: 4–11 s for a loan
 * number with a handful of payments. The loan-number expression is written exactly as the search writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index applications_loan_number_trgm on applications
    using gin (replace(loan_number, '-', '') gin_trgm_ops)`.execute(db);
  await sql`create index repayments_reference_trgm on repayments using gin (lower(reference) gin_trgm_ops)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index repayments_reference_trgm`.execute(db);
  await sql`drop index applications_loan_number_trgm`.execute(db);
}
