import type { Transaction } from 'kysely';
import { todayIn } from '../../domain/date-text';
import { AppError } from '../../domain/errors';
import { loanProductOf } from '../../domain/loan/products';
import { awaitsDecision } from '../../domain/loan/status';
import { isStaffAmountAllowed } from '../../domain/loan/terms';
import { MINOR_PER_MAJOR, toMinor } from '../../domain/money';
import { notifyBorrower, recordAudit } from '../audit/audit';
import type { StaffContext } from '../auth/staff-context';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { publishAfterCommit } from '../events/publish-after-commit';
import type { ApplicationRow } from '../lib/applications';
import { withdrawnMinor } from '../lib/loan-balance';
import { queueBorrowerMessage } from '../notify/sms-outbox';
import { governingProductVersion } from '../products/product-versions';
import { lastDueDate } from './loan-position';
import { lockApplication } from './lock-application';
import { lockRunningLoan } from './lock-running-loan';
import { refreshLoanFacts } from './refresh-loan-facts';
import { assertNoProposedChange, bindingDisclosure, disclosureFor } from './terms-changes';

export type LoanStage = 'pending' | 'approved';

export interface LoanTermsInput {
  amount: number;
  termMonths: number;
  reason?: string | undefined;
  /** Staff say the borrower asked for this reduction (needs a reason; docs/decisions/018). */
  borrowerRequested?: boolean | undefined;
}

/**
 * Staff "Update Loan" / "Change Amount" on a signed application or loan (docs/decisions/018). Only a pure
 * reduction the borrower asked for (a lower amount, the same term, marked so, with a reason) is applied at
 * once; any other change becomes a proposed change the borrower must accept with a code before anything is
 * approved or withdrawn on it. Unchanged terms change nothing. On an approved loan the amount can never go
 * below what has been withdrawn, nor the term end before money already paid out could be repaid.
 */
export async function updateLoanTerms(
  deps: AppDeps,
  ctx: StaffContext,
  queue: LoanStage,
  id: string,
  input: LoanTermsInput,
): Promise<{ outcome: 'applied' | 'proposed' }> {
  const amountMinor = toMinor(input.amount);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    // Pending terms while the application awaits its decision; an approved amount while the loan runs.
    const before =
      queue === 'pending' ? await lockUndecided(trx, id) : await lockRunningLoan(trx, id, 'NOT_FOUND');
    const currentMinor = queue === 'approved' ? (before.approved_amount ?? before.amount) : before.amount;
    // The loan's own product version's staff range and terms (docs/decisions/034).
    const product = loanProductOf(await governingProductVersion(trx, before));
    if (!isStaffAmountAllowed(input.amount, currentMinor / MINOR_PER_MAJOR, product)) {
      throw new AppError('LOAN_UPDATE_INVALID', { fields: { amount: 'LOAN_UPDATE_INVALID' } });
    }
    if (input.termMonths !== before.term_months && !product.termsMonths.includes(input.termMonths)) {
      throw new AppError('LOAN_UPDATE_INVALID', { fields: { termMonths: 'LOAN_UPDATE_INVALID' } });
    }
    await assertNoProposedChange(trx, id);
    if (queue === 'approved') await assertApprovedTermsFit(trx, deps, id, amountMinor, input.termMonths);

    const unchanged = amountMinor === currentMinor && input.termMonths === before.term_months;
    const reduction = amountMinor < currentMinor && input.termMonths === before.term_months;
    const reason = input.reason?.trim() || null;
    if (input.borrowerRequested && (!reduction || !reason)) {
      throw new AppError('BORROWER_REQUEST_REASON_REQUIRED', {
        fields: reason ? { amount: 'BORROWER_REQUEST_REASON_REQUIRED' } : { reason: 'REASON_REQUIRED' },
      });
    }
    if (unchanged) return 'applied' as const;

    const previous = await bindingDisclosure(trx, before);
    const next = disclosureFor(deps, before, amountMinor, input.termMonths);
    const direct = input.borrowerRequested === true && reduction;
    await trx
      .insertInto('terms_changes')
      .values({
        application_id: id,
        stage: queue,
        status: direct ? 'applied' : 'proposed',
        proposed_by: ctx.staff.id,
        reason,
        previous_amount: currentMinor,
        previous_term_months: before.term_months,
        previous_disclosure: JSON.stringify(previous),
        amount: amountMinor,
        term_months: input.termMonths,
        monthly_payment: next.disclosure.monthlyPaymentMinor,
        disclosure: JSON.stringify(next.disclosure),
        disclosure_sha256: next.sha256,
        ...(direct ? { decided_at: new Date(), decided_by: ctx.staff.id } : {}),
      })
      .execute();
    // Whatever the terms become, a first approval of the old ones no longer stands (four-eyes).
    if (queue === 'pending' && before.first_approved_by) {
      await trx
        .updateTable('applications')
        .set({ first_approved_by: null, first_approved_at: null, first_approval_credit_score: null })
        .where('id', '=', id)
        .execute();
    }

    if (direct) {
      const after = await applyTerms(trx, deps, queue, before, amountMinor, input.termMonths);
      await recordAudit(trx, ctx.actor, {
        action: queue === 'pending' ? 'application.update_terms' : 'loan.update_terms',
        targetType: queue === 'pending' ? 'application' : 'loan',
        targetId: id,
        loanId: id,
        before: { ...termsOf(before), borrowerRequested: null },
        after: { ...termsOf(after), borrowerRequested: true },
        reason,
      });
      await notifyBorrower(trx, {
        borrowerId: after.borrower_id,
        applicationId: id,
        kind: 'terms_changed',
        message: reason,
        data: {
          amountMinor: after.amount,
          termMonths: after.term_months,
          monthlyPaymentMinor: after.monthly_payment,
          previousAmountMinor: currentMinor,
          previousTermMonths: before.term_months,
        },
      });
      return 'applied' as const;
    }

    await recordAudit(trx, ctx.actor, {
      action: 'terms.propose',
      targetType: queue === 'pending' ? 'application' : 'loan',
      targetId: id,
      loanId: id,
      before: { amount: currentMinor, termMonths: before.term_months, awaitingBorrower: false },
      after: { amount: amountMinor, termMonths: input.termMonths, awaitingBorrower: true },
      reason,
    });
    await notifyBorrower(trx, {
      borrowerId: before.borrower_id,
      applicationId: id,
      kind: 'terms_change_proposed',
      message: reason,
      data: {
        amountMinor,
        termMonths: input.termMonths,
        monthlyPaymentMinor: next.disclosure.monthlyPaymentMinor,
        previousAmountMinor: currentMinor,
        previousTermMonths: before.term_months,
      },
    });
    // Nothing goes ahead until the borrower answers: told at once, whatever their setting.
    await queueBorrowerMessage(
      trx,
      deps,
      { borrowerId: before.borrower_id, applicationId: id },
      { kind: 'terms_proposed', loanNumber: before.loan_number },
    );
    return 'proposed' as const;
  });
  publishAfterCommit(deps, { type: 'applications-changed' });
  return { outcome };
}

const termsOf = (r: ApplicationRow) => ({
  amount: r.amount,
  approvedAmount: r.approved_amount,
  termMonths: r.term_months,
  monthlyPayment: r.monthly_payment,
});

/**
 * Writes new terms on a locked application (the staff reduction, or a change the borrower accepted): the
 * monthly payment from the domain math, the approved amount on a running loan and its stored facts.
 */
export async function applyTerms(
  trx: Transaction<Database>,
  deps: AppDeps,
  stage: LoanStage,
  before: ApplicationRow,
  amountMinor: number,
  termMonths: number,
): Promise<ApplicationRow> {
  const { disclosure } = disclosureFor(deps, before, amountMinor, termMonths);
  const after = await trx
    .updateTable('applications')
    .set({
      amount: amountMinor,
      term_months: termMonths,
      monthly_payment: disclosure.monthlyPaymentMinor,
      ...(stage === 'approved' ? { approved_amount: amountMinor } : {}),
    })
    .where('id', '=', before.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // A new term re-shapes the schedule of money already paid out: the stored facts follow it.
  if (stage === 'approved') await refreshLoanFacts(trx, deps, after);
  return after;
}

/**
 * New terms for a running loan must leave room for what has happened: never below what was withdrawn, and
 * every payout already made must fall before the last due date of the new term (docs/decisions/010).
 */
export async function assertApprovedTermsFit(
  trx: Transaction<Database>,
  deps: AppDeps,
  id: string,
  amountMinor: number,
  termMonths: number,
): Promise<void> {
  // After the lock: a withdrawal committed while we waited is counted.
  const withdrawn = await withdrawnMinor(trx, id);
  if (amountMinor < withdrawn) {
    throw new AppError('AMOUNT_BELOW_WITHDRAWN', {
      fields: { amount: 'AMOUNT_BELOW_WITHDRAWN' },
      params: { amountMinor: withdrawn },
    });
  }
  const newLastDue = await lastDueDate(trx, { id, term_months: termMonths }, deps.config.timeZone);
  const latestPayout = await trx
    .selectFrom('disbursements')
    .select((eb) => eb.fn.max('decided_at').as('at'))
    .where('application_id', '=', id)
    .where('status', '=', 'paid')
    .executeTakeFirst();
  if (
    newLastDue !== null &&
    latestPayout?.at &&
    todayIn(deps.config.timeZone, new Date(latestPayout.at)) >= newLastDue
  ) {
    throw new AppError('LOAN_TERM_TOO_SHORT', {
      fields: { termMonths: 'LOAN_TERM_TOO_SHORT' },
      params: { date: newLastDue },
    });
  }
}

/** An application whose terms may still change: it awaits its decision (`awaitsDecision`), row locked. */
export async function lockUndecided(trx: Transaction<Database>, id: string) {
  const row = await lockApplication(trx, id);
  if (!awaitsDecision(row.status)) throw new AppError('ALREADY_DECIDED');
  return row;
}
