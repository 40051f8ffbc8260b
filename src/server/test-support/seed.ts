import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { type LoanTerms, loanTermsOf } from '../../domain/loan/loan-terms';
import { defaultRepaymentRules } from '../../domain/loan/repayments';
import { annuityPaymentMinor } from '../../domain/loan/schedule';
import type { LoanStatus } from '../../domain/loan/status';
import { defaultLoanProduct } from '../../domain/loan/terms';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { nextLoanNumberSql } from '../loans/loan-number-sql';
import { refreshLoanFacts } from '../loans/refresh-loan-facts';
import type { Agent, TestApp } from './test-app';

export interface SeedApplication {
  borrowerId: string;
  fullName?: string;
  phone?: string;
  amountMinor?: number;
  termMonths?: number;
  status?: LoanStatus;
  submittedAt?: Date;
  approvedAmountMinor?: number | null;
  /** The loan's own terms (default: the shipped product's, 2 % a month, 3 grace days, no late charge). */
  terms?: Partial<Omit<LoanTerms, 'fees'>> & { fees?: Partial<LoanTerms['fees']> };
}

/** The terms a seeded loan is signed under: the shipped defaults with `overrides`. */
export function seedTerms(overrides: SeedApplication['terms'] = {}): LoanTerms {
  const base = loanTermsOf(defaultLoanProduct, defaultRepaymentRules);
  return { ...base, ...overrides, fees: { ...base.fees, ...overrides.fees } };
}

/**
 * Inserts an application straight into the database (documents point at files that do not exist), for
 * tests of lists, paging and decisions that need many rows fast. Submission itself is tested through
 * the real multipart route.
 */
export async function seedApplication(db: Kysely<Database>, input: SeedApplication): Promise<string> {
  const id = randomUUID();
  const amount = input.amountMinor ?? 10_000_000;
  const term = input.termMonths ?? 12;
  const docIds: string[] = [];
  for (const kind of ['id_front', 'id_back', 'selfie', 'signature'] as const) {
    const row = await db
      .insertInto('documents')
      .values({
        owner_id: input.borrowerId,
        application_id: id,
        kind,
        content_type: kind === 'signature' ? 'image/png' : 'image/jpeg',
        size: 1,
        width: 1,
        height: 1,
        sha256: '0'.repeat(64),
        storage_key: `applications/${id}/${kind}-${randomUUID()}.jpg`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    docIds.push(row.id);
  }
  const status = input.status ?? 'pending';
  const terms = seedTerms(input.terms);
  await db
    .insertInto('applications')
    .values({
      id,
      loan_number: nextLoanNumberSql(sql<string>`'26'`),
      borrower_id: input.borrowerId,
      phone: input.phone ?? '09170000000',
      full_name: input.fullName ?? 'Test Borrower',
      id_number: 'ID-1',
      amount,
      term_months: term,
      monthly_rate_bp: terms.monthlyRateBp,
      monthly_payment: annuityPaymentMinor(amount, term, terms.monthlyRateBp),
      terms: JSON.stringify(terms),
      company_name: 'Co',
      position: 'Owner',
      income: 3_000_000,
      monthly_expense: 1_000_000,
      address: 'Addr',
      email: null,
      contact_name: 'Contact',
      contact_phone: '09180000000',
      contact_address: 'Addr',
      contact_relation: 'friend',
      bank_name: 'GCash',
      account_number: '09171234567',
      doc_id_front: docIds[0]!,
      doc_id_back: docIds[1]!,
      doc_selfie: docIds[2]!,
      doc_signature: docIds[3]!,
      disclosure: '{}',
      disclosure_sha256: '0'.repeat(64),
      status,
      ...(input.submittedAt ? { submitted_at: input.submittedAt } : {}),
      ...(status !== 'pending'
        ? {
            decided_at: sql<Date>`now()`,
            approved_amount: status === 'rejected' ? null : (input.approvedAmountMinor ?? amount),
            credit_score: status === 'rejected' ? null : 500,
          }
        : {}),
    })
    .execute();
  return id;
}

/** A payout already marked paid now, so the loan's repayment schedule has started. */
export async function seedPaidDisbursement(
  db: Kysely<Database>,
  applicationId: string,
  input: { amountMinor?: number; reference?: string } = {},
  /** Given: the stored loan facts are refreshed as marking a payout paid does (docs/decisions/012). */
  factsDeps?: Pick<AppDeps, 'clock' | 'config'>,
): Promise<void> {
  if (factsDeps) {
    await db.transaction().execute(async (trx) => {
      await seedPaidDisbursement(trx, applicationId, input);
      const loan = await trx
        .selectFrom('applications')
        .select(['id', 'term_months', 'terms'])
        .where('id', '=', applicationId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      await refreshLoanFacts(trx, factsDeps, loan);
    });
    return;
  }
  await db
    .insertInto('disbursements')
    .values({
      application_id: applicationId,
      amount: input.amountMinor ?? 10_000_000,
      bank_name: 'GCash',
      account_number: '09171234567',
      code_verified: true,
      status: 'paid',
      decided_at: new Date(),
      reference: input.reference ?? `PAYOUT-${applicationId.slice(0, 8)}`,
    })
    .execute();
}

/** The loan number the database gave an application (what borrowers quote when they pay). */
export async function loanNumberOf(db: Kysely<Database>, applicationId: string): Promise<string> {
  const row = await db
    .selectFrom('applications')
    .select('loan_number')
    .where('id', '=', applicationId)
    .executeTakeFirstOrThrow();
  return row.loan_number;
}

/** A borrower signed up through the real routes, with an application of theirs seeded (`seedApplication`). */
export async function seedBorrowerWithApplication(
  t: Pick<TestApp, 'db' | 'signUpBorrower'>,
  input: Omit<SeedApplication, 'borrowerId' | 'phone'> = {},
) {
  const borrower = await t.signUpBorrower();
  const id = await seedApplication(t.db, { borrowerId: borrower.user.id, phone: borrower.phone, ...input });
  return { borrower, id };
}

/** The status a row holds in the database now (not what an answer said). */
export async function storedStatus(
  db: Kysely<Database>,
  table: 'applications' | 'disbursements' | 'users',
  id: string,
): Promise<string> {
  const row = await db.selectFrom(table).select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return row.status;
}

/** An audit event with these values (its target, its loan, its action), the first one read; throws if none. */
export function storedAuditEvent(
  db: Kysely<Database>,
  where: { targetId?: string; loanId?: string; action?: string },
) {
  let query = db.selectFrom('audit_events').selectAll();
  if (where.targetId !== undefined) query = query.where('target_id', '=', where.targetId);
  if (where.loanId !== undefined) query = query.where('loan_id', '=', where.loanId);
  if (where.action !== undefined) query = query.where('action', '=', where.action);
  return query.executeTakeFirstOrThrow();
}

/** A withdrawal the borrower requested (code verified), not yet paid or failed, to GCash. Answers its id. */
export async function seedRequestedDisbursement(
  db: Kysely<Database>,
  applicationId: string,
  amountMinor: number,
): Promise<string> {
  const row = await db
    .insertInto('disbursements')
    .values({
      application_id: applicationId,
      amount: amountMinor,
      bank_name: 'GCash',
      account_number: '09171234567',
      code_verified: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A payment the provider reported for no known loan (a reference matching none), kept for finance. */
export async function seedUnappliedPayment(db: Kysely<Database>, providerReference: string): Promise<string> {
  const row = await db
    .insertInto('unapplied_payments')
    .values({
      provider: 'gcash',
      provider_reference: providerReference,
      amount: 10_000,
      received_at: new Date(),
      payer_reference: 'unknown',
      payload: '{}',
      reason: 'unknown_reference',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A payout as it really happens: a requested disbursement, then finance marks it paid through the API (which
 * checks the last due date and refreshes the stored loan facts). Answers the disbursement's id.
 */
export async function payOutThroughApi(
  db: Kysely<Database>,
  finance: Agent,
  applicationId: string,
  amountMinor: number,
  reference: string,
): Promise<string> {
  const id = await seedRequestedDisbursement(db, applicationId, amountMinor);
  const paid = await finance.post(`/api/staff/disbursements/${id}/paid`, { reference });
  if (paid.status !== 200) throw new Error(`mark paid answered ${paid.status}: ${paid.text}`);
  return id;
}
