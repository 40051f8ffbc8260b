import type { Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { toMinor } from '../../../domain/money';
import type { WithdrawalRequest } from '../../../domain/schemas/wallet';
import { liveCodeContext, withVerifiedCode } from '../../auth/verification-codes';
import type { Database, User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { today } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { isContextForWithdrawal, loanForWithdrawal, withdrawalContext } from './open-loan';
import { withdrawalPlan } from './withdrawal-plan';

/** A retried request (same idempotency key) gets the disbursement the first one created. */
async function existingFor(deps: AppDeps, borrowerId: string, key: string) {
  return deps.db
    .selectFrom('disbursements')
    .innerJoin('applications', 'applications.id', 'disbursements.application_id')
    .selectAll('disbursements')
    .where('applications.borrower_id', '=', borrowerId)
    .where('disbursements.idempotency_key', '=', key)
    .executeTakeFirst();
}

/**
 * The money part of a withdrawal, inside the caller's transaction (after the code was verified): lock the
 * loan, re-check status and balance, and — with `plan` — that the payment plan is still the one the code
 * was bound to (a payout, failure or repayment may have come in meanwhile), then record the request.
 */
export async function insertDisbursement(
  trx: Transaction<Database>,
  borrowerId: string,
  amountMinor: number,
  idempotencyKey: string,
  when: { today: string; timeZone: string },
  plan?: { digest: string; deps: Pick<AppDeps, 'config'> },
) {
  const { loan } = await loanForWithdrawal(trx, borrowerId, amountMinor, { lock: true, ...when });
  if (plan) {
    const now = await withdrawalPlan(trx, loan, amountMinor, plan.deps, when.today);
    if (now.digest !== plan.digest) throw new AppError('WITHDRAWAL_PLAN_CHANGED');
  }
  return trx
    .insertInto('disbursements')
    .values({
      application_id: loan.id,
      amount: amountMinor,
      bank_name: loan.bank_name,
      account_number: loan.account_number,
      code_verified: true,
      idempotency_key: idempotencyKey,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Creates a `requested` disbursement in one transaction: the code is consumed, the loan row locked, the
 * balance re-checked and the record inserted together, so concurrent requests can never take more than
 * is available and a retried request is answered with the original result.
 */
export async function requestWithdrawal(deps: AppDeps, borrower: User, input: WithdrawalRequest) {
  const replay = await existingFor(deps, borrower.id, input.idempotencyKey);
  if (replay) return { disbursement: replay, replayed: true };
  if (!borrower.phone) throw new AppError('LOAN_NOT_FOUND');

  const amountMinor = toMinor(input.amount);
  // Checked before the code, so a wrong amount never spends one of the code's five tries.
  const when = { today: today(deps), timeZone: deps.config.timeZone };
  const { loan } = await loanForWithdrawal(deps.db, borrower.id, amountMinor, { lock: false, ...when });
  // The code is bound to the plan the borrower was shown; recomputed now with the same inputs it must be
  // the same. A code for this withdrawal but another plan is refused as such, without spending a try.
  const { digest } = await withdrawalPlan(deps.db, loan, amountMinor, deps, when.today);
  const context = withdrawalContext(loan, amountMinor, digest);
  const issued = await liveCodeContext(deps.db, { phone: borrower.phone, purpose: 'withdrawal' });
  if (issued !== null && issued !== context && isContextForWithdrawal(issued, loan, amountMinor)) {
    throw new AppError('WITHDRAWAL_PLAN_CHANGED');
  }

  try {
    const disbursement = await withVerifiedCode(
      { db: deps.db, secret: deps.config.sessionSecret },
      { phone: borrower.phone, purpose: 'withdrawal', context },
      input.code,
      (trx) =>
        insertDisbursement(trx, borrower.id, amountMinor, input.idempotencyKey, when, { digest, deps }),
      'WITHDRAWAL_CODE_INVALID',
    );
    publishAfterCommit(deps, { type: 'disbursements-changed' });
    return { disbursement, replayed: false };
  } catch (error) {
    // Two copies of the same request raced: the loser reports the winner's result.
    const isRace =
      isUniqueViolation(error, 'disbursements_idempotency_key') ||
      (error instanceof AppError && error.code === 'WITHDRAWAL_CODE_INVALID');
    if (isRace) {
      const winner = await existingFor(deps, borrower.id, input.idempotencyKey);
      if (winner) return { disbursement: winner, replayed: true };
    }
    throw error;
  }
}
