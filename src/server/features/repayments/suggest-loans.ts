import { sql } from 'kysely';
import { todayIn } from '../../../domain/date-text';
import { addDays, daysBetween } from '../../../domain/loan/calendar';
import { matchLoanReference } from '../../../domain/loan/loan-number';
import { deriveLoanPosition } from '../../../domain/loan/repayments';
import { isRunning, type LoanStatus, runningStatuses } from '../../../domain/loan/status';
import { payerPhoneForms } from '../../../domain/payer-phone';
import type { LoanSuggestion } from '../../../domain/schemas/payments';
import { executePreparedSql } from '../../db/prepared-statements';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { sqlList } from '../../lib/sql-lists';
import { unpaidRunningLoanSql } from '../../loans/loan-facts-sql';
import { firstPayoutSql, loadLoansRecords } from '../../loans/loan-position';

/**
 * "Due near the payment date" (docs/decisions/038): an instalment falling due up to a month before the
 * payment (paid late) or up to 15 days after it (paid early).
 */
export const NEAR_BEFORE_DAYS = 31;
export const NEAR_AFTER_DAYS = 15;

/** A kept payment, as much of it as a suggestion reads. */
export interface KeptPayment {
  id: string;
  amountMinor: number;
  receivedAt: Date;
  payerReference: string;
  memo: string | null;
  payerPhone: string | null;
}

interface CandidateLoan {
  id: string;
  loan_number: string;
  full_name: string;
  status: LoanStatus;
  first_paid_at: Date | null;
}

/**
 * The loan each open kept payment likely belongs to, and why (issue #32): first the loan number written in
 * its reference or memo, read forgivingly; then the payer's phone, when the provider sent one, as a
 * borrower's with a running loan; then the amount: the one running loan whose oldest unpaid instalment
 * leaves exactly that amount and falls due near the payment's date, confirmed by a replay of that loan on
 * that date (the instalment's amount, or everything due then: `amountDueNowMinor`). Only a loan that can
 * take the payment is suggested (running, paid out by the payment's date), and only one loan: two loans
 * by the same rule suggest nothing.
 *
 * Cost for a page of payments, whatever the size of the book: one statement for what the three rules find
 * (the references, the phones, and per payment one bounded read of migration 027's
 * `applications_due_amount_idx`, at most two rows), then the records of the loans an amount alone points
 * to, all together, to replay each once (three statements, none when no amount points to one loan).
 */
export async function suggestLoans(
  deps: AppDeps,
  payments: readonly KeptPayment[],
): Promise<Map<string, LoanSuggestion>> {
  const suggestions = new Map<string, LoanSuggestion>();
  if (payments.length === 0) return suggestions;
  const asOf = today(deps);
  const tz = deps.config.timeZone;
  /** The day a payment counts as received (never after our today, as when it is applied). */
  const dayOf = (p: KeptPayment) => [todayIn(tz, p.receivedAt), asOf].sort()[0]!;
  const takes = (loan: CandidateLoan, day: string) =>
    isRunning(loan.status) && loan.first_paid_at !== null && todayIn(tz, loan.first_paid_at) <= day;
  const suggest = (p: KeptPayment, loan: CandidateLoan, basis: LoanSuggestion['basis'], on: string | null) =>
    suggestions.set(p.id, {
      loanId: loan.id,
      loanNumber: loan.loan_number,
      fullName: loan.full_name,
      basis,
      on,
    });

  // What each rule finds, all in one statement (one round trip for the page, not one per rule).
  const named = new Map<string, string>();
  for (const p of payments) {
    const match = matchLoanReference(p.payerReference, p.memo);
    if (match.kind === 'one') named.set(p.id, match.loanNumber);
  }
  const phones = new Map<string, string[]>();
  for (const p of payments) {
    const forms = payerPhoneForms(p.payerPhone);
    if (forms.length > 0) phones.set(p.id, forms);
  }
  const nearDates = payments.map((p) => {
    const day = dayOf(p);
    return { p, day, from: addDays(day, -NEAR_BEFORE_DAYS), to: addDays(day, NEAR_AFTER_DAYS) };
  });
  const found = await candidateLoans(
    deps,
    [...new Set(named.values())],
    [...new Set([...phones.values()].flat())],
    nearDates,
  );

  // 1. The loan number the payer wrote.
  for (const p of payments) {
    const number = named.get(p.id);
    const loan = found.find((row) => row.rule === 'reference' && row.loan_number === number);
    if (loan && takes(loan, dayOf(p))) suggest(p, loan, 'reference', null);
  }

  // 2. The payer's phone: a borrower's, with a running loan (a borrower has at most one open loan).
  for (const p of payments) {
    const forms = phones.get(p.id);
    if (suggestions.has(p.id) || !forms) continue;
    const loans = found.filter(
      (row) => row.rule === 'phone' && forms.includes(row.phone ?? '') && takes(row, dayOf(p)),
    );
    const distinct = new Set(loans.map((loan) => loan.id));
    if (distinct.size === 1) suggest(p, loans[0]!, 'phone', null);
  }

  // 3. The amount, against instalments falling due near the payment's date: the one running loan found
  // (at most two read per payment), confirmed by a replay of its records, all read together.
  const single = nearDates.flatMap((near, i) => {
    if (suggestions.has(near.p.id)) return [];
    const candidates = found.filter((row) => row.rule === 'amount' && row.payment === i);
    const loan = candidates[0];
    return candidates.length === 1 && loan && takes(loan, near.day) ? [{ ...near, loan }] : [];
  });
  const replayed = await loadLoansRecords(
    deps.db,
    single.map(({ loan }) => loan),
    tz,
  );
  for (const { p, day, from, to, loan } of single) {
    const position = deriveLoanPosition(replayed.get(loan.id)!.records, day);
    // Everything due on the payment's date (late charges included), dated by its oldest instalment; or
    // one instalment falling due near that date, paid early or late.
    if (position.amountDueNowMinor === p.amountMinor && position.nextPayment) {
      suggest(p, loan, 'amount', position.nextPayment.dueDate);
      continue;
    }
    const instalment = position.schedule
      .filter((row) => row.unpaidMinor === p.amountMinor && row.dueDate >= from && row.dueDate <= to)
      .sort((x, y) => Math.abs(daysBetween(x.dueDate, day)) - Math.abs(daysBetween(y.dueDate, day)))[0];
    if (instalment) suggest(p, loan, 'amount', instalment.dueDate);
  }
  return suggestions;
}

/** A loan one of the rules found, with the rule, and the payment (its index) an amount was looked up for. */
interface FoundLoan extends CandidateLoan {
  rule: 'reference' | 'phone' | 'amount';
  payment: number | null;
  phone: string | null;
  term_months: number;
  terms: unknown;
}

/**
 * The loans each rule points to, in one statement: by loan number; running loans of borrowers with one of
 * the phones; and for each payment (by its index) at most two unpaid running loans whose next instalment
 * leaves its amount and falls due near its date (migration 027's `applications_due_amount_idx`). Its text
 * is the same for every page (the values go in as arrays), so it runs as a named statement and PostgreSQL
 * plans it once per connection: every read in it is by key, whatever the values (docs/decisions/025).
 */
async function candidateLoans(
  deps: AppDeps,
  loanNumbers: string[],
  phones: string[],
  near: { p: KeptPayment; from: string; to: string }[],
): Promise<FoundLoan[]> {
  const loan = (a: string) =>
    sql.join([
      sql.ref(`${a}.id`),
      sql.ref(`${a}.loan_number`),
      sql.ref(`${a}.full_name`),
      sql.ref(`${a}.status`),
      sql.ref(`${a}.term_months`),
      sql.ref(`${a}.terms`),
      sql`${firstPayoutSql(sql.ref(`${a}.id`))} as first_paid_at`,
    ]);
  return executePreparedSql<FoundLoan>(
    deps.db,
    sql`select 'reference' as rule, null::int as payment, null::text as phone, ${loan('a')}
      from applications a where a.loan_number = any(${loanNumbers}::text[])
    union all
    select 'phone', null, u.phone, ${loan('a')}
      from users u join applications a on a.borrower_id = u.id
      where u.phone = any(${phones}::text[]) and a.status in (${sqlList(runningStatuses)})
    union all
    select 'amount', (p.n - 1)::int, null, ${loan('c')}
      from unnest(${near.map((n) => n.p.amountMinor)}::bigint[], ${near.map((n) => n.from)}::date[],
                  ${near.map((n) => n.to)}::date[]) with ordinality as p(amount, due_from, due_to, n)
      cross join lateral (${deps.db
        .selectFrom('applications')
        .select([
          'applications.id',
          'applications.loan_number',
          'applications.full_name',
          'applications.status',
          'applications.term_months',
          'applications.terms',
        ])
        .where(unpaidRunningLoanSql())
        .where(sql<boolean>`applications.next_due_minor = p.amount`)
        .where(sql<boolean>`applications.next_due_on between p.due_from and p.due_to`)
        .limit(2)}) as c`,
  );
}
