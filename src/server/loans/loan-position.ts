import { type Expression, type Kysely, type SqlBool, sql, type Transaction } from 'kysely';
import { todayIn } from '../../domain/date-text';
import { addMonthsClamped } from '../../domain/loan/calendar';
import { parseLoanTerms, repaymentRulesOf } from '../../domain/loan/loan-terms';
import {
  type AppliedRepayment,
  deriveLoanPosition,
  type InstalmentPosition,
  type LoanPosition,
  type LoanRecords,
} from '../../domain/loan/repayments';
import type { LoanPositionDto } from '../../domain/schemas/repayments';
import { executePrepared } from '../db/prepared-statements';
import type { Database, RepaymentSource } from '../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** A stored repayment with its reversal, in the order it was recorded. */
export interface RepaymentRow {
  id: string;
  amount: number;
  receivedOn: string;
  channel: string;
  reference: string;
  source: RepaymentSource;
  recordedBy: string | null;
  recordedAt: Date;
  reversal: { reason: string; reversedBy: string | null; reversedAt: Date } | null;
}

export interface LoanForPosition {
  id: string;
  term_months: number;
  /** The loan's own terms (`applications.terms`): rate, fees, late charge and grace from its signing. */
  terms: unknown;
}

/** What `loadLoanRecords` reads of a loan. */
export interface StoredLoanRecords {
  records: LoanRecords;
  repayments: RepaymentRow[];
  requested: { amountMinor: number; feeMinor: number }[];
}

/**
 * Everything stored about the money of one loan: paid disbursements (paid on the day they were marked paid,
 * in the lender's time zone) and every repayment with its reversal, in the order recorded. With
 * `withRequested`, also the withdrawals still being processed (`requested`, oldest first, with their fees), read by the
 * same statement. Inside a transaction, call it after locking the loan row so no repayment is missed.
 */
export async function loadLoanRecords(
  db: Db,
  loan: LoanForPosition,
  timeZone: string,
  options: { withRequested?: boolean } = {},
): Promise<StoredLoanRecords> {
  return (await loadLoansRecords(db, [loan], timeZone, options)).get(loan.id)!;
}

/**
 * `loadLoanRecords` for several loans with the same three statements (a page of kept payments replays the
 * loans suggested for them: one round trip each was three per loan). By loan id.
 */
export async function loadLoansRecords(
  db: Db,
  loans: readonly LoanForPosition[],
  timeZone: string,
  options: { withRequested?: boolean } = {},
): Promise<Map<string, StoredLoanRecords>> {
  const loaded = new Map<string, StoredLoanRecords>();
  if (loans.length === 0) return loaded;
  const ids = [...new Set(loans.map((loan) => loan.id))];
  // The ids as one array: the same three texts for any number of loans, named statements (planned once per
  // connection; each is read by the loan's index whatever the ids, docs/decisions/025).
  const ofLoans = (column: string) => sql<SqlBool>`${sql.ref(column)} = any(${ids}::uuid[])`;
  const [payouts, rows, refunds] = await Promise.all([
    executePrepared(
      db,
      db
        .selectFrom('disbursements')
        .select(['application_id', 'amount', 'fee_minor', 'decided_at', 'status'])
        .where(ofLoans('application_id'))
        .where('status', 'in', options.withRequested ? ['paid', 'requested'] : ['paid'])
        // Paid ones in the order they were paid, requested ones in the order they were asked for.
        .orderBy(sql`coalesce(decided_at, requested_at)`)
        .orderBy('id'),
    ),
    executePrepared(
      db,
      db
        .selectFrom('repayments as r')
        .leftJoin('repayment_reversals as rr', 'rr.repayment_id', 'r.id')
        .leftJoin('users as recorder', 'recorder.id', 'r.recorded_by')
        .leftJoin('users as reverser', 'reverser.id', 'rr.reversed_by')
        .select([
          'r.application_id',
          'r.id',
          'r.amount',
          'r.channel',
          'r.reference',
          'r.source',
          'r.created_at',
          'rr.reason',
          'rr.created_at as reversed_at',
        ])
        // A date column as text: no driver turns it into a Date at midnight of some zone.
        .select(sql<string>`r.received_on::text`.as('received_on'))
        .select(sql<string | null>`coalesce(recorder.username, recorder.phone)`.as('recorded_by_name'))
        .select(sql<string | null>`coalesce(reverser.username, reverser.phone)`.as('reversed_by_name'))
        .where(ofLoans('r.application_id'))
        .orderBy('r.created_at')
        .orderBy('r.id'),
    ),
    executePrepared(
      db,
      db
        .selectFrom('credit_refunds')
        .select(['application_id', 'amount', 'created_at'])
        .where(ofLoans('application_id'))
        .orderBy('created_at')
        .orderBy('id'),
    ),
  ]);
  for (const loan of loans) {
    // Each loan's rows in the statements' order (a filter keeps it).
    const own = <R extends { application_id: string }>(all: R[]) =>
      all.filter((r) => r.application_id === loan.id);
    loaded.set(loan.id, toLoanRecords(loan, timeZone, own(payouts), own(rows), own(refunds)));
  }
  return loaded;
}

function toLoanRecords(
  loan: LoanForPosition,
  timeZone: string,
  payouts: { amount: number; fee_minor: number | string; decided_at: Date | null; status: string }[],
  rows: {
    id: string;
    amount: number;
    received_on: string;
    channel: string;
    reference: string;
    source: RepaymentSource;
    created_at: Date;
    reason: string | null;
    reversed_at: Date | null;
    recorded_by_name: string | null;
    reversed_by_name: string | null;
  }[],
  refunds: { amount: number; created_at: Date }[],
): StoredLoanRecords {
  const terms = parseLoanTerms(loan.terms);
  const repayments: RepaymentRow[] = rows.map((r) => ({
    id: r.id,
    amount: r.amount,
    receivedOn: r.received_on,
    channel: r.channel,
    reference: r.reference,
    source: r.source,
    recordedBy: r.recorded_by_name,
    recordedAt: r.created_at,
    reversal:
      r.reversed_at && r.reason !== null
        ? { reason: r.reason, reversedBy: r.reversed_by_name, reversedAt: r.reversed_at }
        : null,
  }));
  const paid = payouts.filter((d) => d.status === 'paid');
  const requested = payouts
    .filter((d) => d.status === 'requested')
    .map((d) => ({ amountMinor: d.amount, feeMinor: Number(d.fee_minor) }));
  // The fees that count (toward the 100 % cap, in the cost) are the ones taken from the payouts.
  const disbursements = paid.map((d) => ({
    amountMinor: d.amount,
    paidOn: todayIn(timeZone, d.decided_at as Date),
    feeMinor: Number(d.fee_minor),
  }));
  return {
    records: {
      termMonths: loan.term_months,
      monthlyRateBp: terms.monthlyRateBp,
      disbursements,
      repayments: repayments.map((r) => ({
        id: r.id,
        amountMinor: r.amount,
        receivedOn: r.receivedOn,
        reversedOn: r.reversal ? todayIn(timeZone, r.reversal.reversedAt) : null,
      })),
      refunds: refunds.map((f) => ({ amountMinor: f.amount, refundedOn: todayIn(timeZone, f.created_at) })),
      rules: repaymentRulesOf(terms),
    },
    repayments,
    requested,
  };
}

/** The loan's position as of `asOf` (today in the lender's time zone), derived from its records. */
export async function loanPosition(
  db: Db,
  loan: LoanForPosition,
  deps: { config: { timeZone: string } },
  asOf: string,
): Promise<{ position: LoanPosition; records: LoanRecords; repayments: RepaymentRow[] }> {
  const { records, repayments } = await loadLoanRecords(db, loan, deps.config.timeZone);
  return { position: deriveLoanPosition(records, asOf), records, repayments };
}

/** An instalment's figures as every screen shows them (the borrower's schedule; staff's adds its state). */
export function toInstalmentDto(i: InstalmentPosition) {
  return {
    number: i.number,
    dueDate: i.dueDate,
    paymentMinor: i.paymentMinor,
    principalMinor: i.principalMinor,
    interestMinor: i.interestMinor,
    balanceMinor: i.balanceMinor,
  };
}

/**
 * The part of a repayment both the borrower and staff see: the money, when and how it came, and how it was
 * applied (`applied`: the position's repayments by id; a reversed one has no allocation).
 */
export function toRepaymentLine(r: RepaymentRow, applied: ReadonlyMap<string, AppliedRepayment>) {
  return {
    id: r.id,
    amountMinor: r.amount,
    receivedOn: r.receivedOn,
    channel: r.channel,
    reference: r.reference,
    reversed: r.reversal !== null,
    allocation: applied.get(r.id)?.allocation ?? null,
  };
}

/** The figures a screen shows, without the replay's internals. */
export function toLoanPositionDto(p: LoanPosition): LoanPositionDto {
  return {
    asOf: p.asOf,
    startDate: p.startDate,
    principalPaidOutMinor: p.principalPaidOutMinor,
    outstandingPrincipalMinor: p.outstandingPrincipalMinor,
    interestDueMinor: p.interestDueMinor,
    interestAccruedMinor: p.interestAccruedMinor,
    lateChargesDueMinor: p.lateChargesDueMinor,
    paidAheadMinor: p.paidAheadMinor,
    overpaidMinor: p.overpaidMinor,
    creditMinor: p.creditMinor,
    refundedMinor: p.refundedMinor,
    payoffMinor: p.payoffMinor,
    amountDueNowMinor: p.amountDueNowMinor,
    levelPaymentMinor: p.levelPaymentMinor,
    nextPayment: p.nextPayment,
    daysPastDue: p.daysPastDue,
    overdueMinor: p.overdueMinor,
    graceDays: p.graceDays,
    lateChargeMonthlyBp: p.lateChargeMonthlyBp,
    schedule: p.schedule.map((i) => ({
      ...toInstalmentDto(i),
      paidMinor: i.paidMinor,
      unpaidMinor: i.unpaidMinor,
      status: i.status,
      daysPastDue: i.daysPastDue,
      settledEarlyOn: i.settledEarlyOn,
    })),
  };
}

/**
 * The last due date of a loan that has been paid out (null before its first payout). Money paid out on or
 * after it could not be amortised over any instalment, so no withdrawal or payout may fall there.
 */
export async function lastDueDate(
  db: Db,
  loan: { id: string; term_months: number },
  timeZone: string,
): Promise<string | null> {
  const row = await db
    .selectNoFrom(firstPayoutSql(sql.val(loan.id)).as('first_paid_at'))
    .executeTakeFirstOrThrow();
  return lastDueAfter(row.first_paid_at, loan.term_months, timeZone);
}

/** When the loan's first payout was paid (null before it): select it next to the loan row to save a round trip. */
export function firstPayoutSql(applicationId: Expression<string>) {
  return sql<Date | null>`(select min(d.decided_at) from disbursements d
    where d.application_id = ${applicationId} and d.status = 'paid')`;
}

/** `lastDueDate` from the first payout's time (`firstPayoutSql`). */
export function lastDueAfter(firstPaidAt: Date | null, termMonths: number, timeZone: string): string | null {
  if (!firstPaidAt) return null;
  return addMonthsClamped(todayIn(timeZone, firstPaidAt), termMonths);
}
