import { sql } from 'kysely';
import { todayIn } from '../../../domain/date-text';
import { addDays, daysBetween } from '../../../domain/loan/calendar';
import { matchLoanReference } from '../../../domain/loan/loan-number';
import { deriveLoanPosition } from '../../../domain/loan/repayments';
import { isRunning, type LoanStatus, runningStatuses } from '../../../domain/loan/status';
import { payerPhoneForms } from '../../../domain/payer-phone';
import type { LoanSuggestion } from '../../../domain/schemas/payments';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { unpaidRunningLoanSql } from '../../loans/loan-facts-sql';
import { firstPayoutSql, loadLoanRecords } from '../../loans/loan-position';

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
 * Cost for a page of payments, whatever the size of the book: one statement for the references, one for
 * the phones, one for the amounts (per payment still without a suggestion one bounded read of migration
 * 027's `applications_due_amount_idx`, at most two rows) and per payment at most one replay.
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

  // 1. The loan number the payer wrote.
  const named = new Map<string, string>();
  for (const p of payments) {
    const match = matchLoanReference(p.payerReference, p.memo);
    if (match.kind === 'one') named.set(p.id, match.loanNumber);
  }
  if (named.size > 0) {
    const loans = await deps.db
      .selectFrom('applications as a')
      .select(['a.id', 'a.loan_number', 'a.full_name', 'a.status'])
      .select(firstPayoutSql(sql.ref('a.id')).as('first_paid_at'))
      .where('a.loan_number', 'in', [...new Set(named.values())])
      .execute();
    const byNumber = new Map(loans.map((loan) => [loan.loan_number, loan]));
    for (const p of payments) {
      const loan = byNumber.get(named.get(p.id) ?? '');
      if (loan && takes(loan, dayOf(p))) suggest(p, loan, 'reference', null);
    }
  }

  // 2. The payer's phone: a borrower's, with a running loan (a borrower has at most one open loan).
  const phones = new Map<string, string[]>();
  for (const p of payments) {
    if (suggestions.has(p.id)) continue;
    const forms = payerPhoneForms(p.payerPhone);
    if (forms.length > 0) phones.set(p.id, forms);
  }
  if (phones.size > 0) {
    const rows = await deps.db
      .selectFrom('users as u')
      .innerJoin('applications as a', 'a.borrower_id', 'u.id')
      .select(['u.phone', 'a.id', 'a.loan_number', 'a.full_name', 'a.status'])
      .select(firstPayoutSql(sql.ref('a.id')).as('first_paid_at'))
      .where('u.phone', 'in', [...new Set([...phones.values()].flat())])
      .where('a.status', 'in', runningStatuses)
      .execute();
    for (const p of payments) {
      const forms = phones.get(p.id);
      if (!forms) continue;
      const loans = rows.filter((row) => forms.includes(row.phone ?? '') && takes(row, dayOf(p)));
      const distinct = new Set(loans.map((loan) => loan.id));
      if (distinct.size === 1) suggest(p, loans[0]!, 'phone', null);
    }
  }

  // 3. The amount, against instalments falling due near the payment's date: one index read each, all in
  // one statement (a page of ten payments was ten round trips).
  const unmatched = payments
    .filter((p) => !suggestions.has(p.id))
    .map((p) => {
      const day = dayOf(p);
      return { p, day, from: addDays(day, -NEAR_BEFORE_DAYS), to: addDays(day, NEAR_AFTER_DAYS) };
    });
  const near =
    unmatched.length === 0
      ? []
      : (
          await sql<CandidateLoan & { payment: number; term_months: number; terms: unknown }>`
            select p.payment, c.*
            from (values ${sql.join(
              unmatched.map(
                (u, i) => sql`(${sql.lit(i)}, ${u.p.amountMinor}::bigint, ${u.from}::date, ${u.to}::date)`,
              ),
            )}) as p(payment, amount, due_from, due_to)
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
              .select(firstPayoutSql(sql.ref('applications.id')).as('first_paid_at'))
              .where(unpaidRunningLoanSql())
              .where(sql<boolean>`applications.next_due_minor = p.amount`)
              .where(sql<boolean>`applications.next_due_on between p.due_from and p.due_to`)
              .limit(2)}) as c`.execute(deps.db)
        ).rows;
  for (const [i, { p, day, from, to }] of unmatched.entries()) {
    const candidates = near.filter((row) => row.payment === i);
    if (candidates.length !== 1) continue;
    const loan = candidates[0]!;
    if (!takes(loan, day)) continue;
    const { records } = await loadLoanRecords(deps.db, loan, tz);
    const position = deriveLoanPosition(records, day);
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
