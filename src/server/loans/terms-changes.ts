import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { todayIn } from '../../domain/date-text';
import { AppError, type ErrorCode } from '../../domain/errors';
import { buildDisclosure, type Disclosure } from '../../domain/loan/disclosure';
import { parseLoanTerms } from '../../domain/loan/loan-terms';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import type { ApplicationRow } from '../lib/applications';
import { disclosureSha256 } from './quote-loan';

/**
 * Signed terms bind (SPEC §8, docs/decisions/018). The disclosure a change would bind, computed by the
 * domain from the application's own terms, with the SHA-256 of its canonical JSON.
 */
export function disclosureFor(
  deps: AppDeps,
  application: Pick<ApplicationRow, 'terms'>,
  amountMinor: number,
  termMonths: number,
): { disclosure: Disclosure; sha256: string } {
  const disclosure = buildDisclosure({
    amountMinor,
    termMonths,
    currency: deps.config.loanProduct.currency,
    // The loan's own terms: a change of amount or term keeps every other term it was signed under.
    terms: parseLoanTerms(application.terms),
    startDate: todayIn(deps.config.timeZone),
  });
  return { disclosure, sha256: disclosureSha256(disclosure) };
}

/** The change waiting for the borrower's answer, if any (at most one: a partial unique index). */
export function proposedChangeOf(db: Kysely<Database> | Transaction<Database>, applicationId: string) {
  return db
    .selectFrom('terms_changes')
    .selectAll()
    .where('application_id', '=', applicationId)
    .where('status', '=', 'proposed')
    .executeTakeFirst();
}

/**
 * Refuses with `code` while a change waits for the borrower. Called after the application row is locked:
 * every writer of `terms_changes` locks that row first, so the answer holds until the caller commits.
 */
export async function assertNoProposedChange(
  trx: Transaction<Database>,
  applicationId: string,
  code: ErrorCode = 'TERMS_CHANGE_PENDING',
): Promise<void> {
  if (await proposedChangeOf(trx, applicationId)) throw new AppError(code);
}

/** The disclosure that binds now: the last change the borrower accepted (or asked for), else the signed one. */
export async function bindingDisclosure(
  db: Kysely<Database> | Transaction<Database>,
  application: Pick<ApplicationRow, 'id' | 'disclosure'>,
): Promise<unknown> {
  const latest = await db
    .selectFrom('terms_changes')
    .select('disclosure')
    .where('application_id', '=', application.id)
    .where('status', 'in', ['accepted', 'applied'])
    .orderBy('decided_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest?.disclosure ?? application.disclosure;
}

/** SQL: whether the application `id` has a change waiting for the borrower (for lists). */
export function termsChangePendingSql(id: RawBuilder<unknown>) {
  return sql<boolean>`exists (select 1 from terms_changes tc where tc.application_id = ${id} and tc.status = 'proposed')`;
}
