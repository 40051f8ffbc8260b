import { sql, type Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { toMinor } from '../../../domain/money';
import type { WithdrawalRequest } from '../../../domain/schemas/wallet';
import {
  codeCheckDeps,
  codeRefused,
  liveCodeContext,
  liveCodeContextSql,
  withVerifiedCode,
} from '../../auth/verification-codes';
import type { Database, User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { today } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import {
  checkLoanForWithdrawal,
  isContextForWithdrawal,
  loanFactsSql,
  loanForWithdrawal,
  runningLoanQuery,
  toLoanRead,
  withdrawalContext,
} from './open-loan';
import { withdrawalPlan } from './withdrawal-plan';

/** A retried request (same idempotency key) gets the disbursement the first one created. */
async function existingFor(deps: AppDeps, borrowerId: string, key: string) {
  return deps.db
    .selectFrom('disbursements')
    .innerJoin('applications', 'applications.id', 'disbursements.application_id')
    .where('applications.borrower_id', '=', borrowerId)
    .where('disbursements.idempotency_key', '=', key)
    .selectAll('disbursements')
    .executeTakeFirst();
}

/**
 * In ONE statement (one snapshot): the borrower's running loan with everything its checks need, the
 * context of their withdrawal code if it can still be used, and the keys of the withdrawals already
 * recorded for them (a retried request is answered with the one its key recorded). Read together, a copy
 * that spent the code shows as recorded whenever the code shows as spent. Nothing in it depends on the
 * request, so requests released together by the gate share it. Without a running loan, the code and the
 * keys are read on their own.
 */
async function readBorrower(deps: AppDeps, borrower: User) {
  const recorded = deps.db
    .selectFrom('disbursements')
    .innerJoin('applications', 'applications.id', 'disbursements.application_id')
    .where('applications.borrower_id', '=', borrower.id)
    .where('disbursements.idempotency_key', 'is not', null)
    .select(sql<string[]>`coalesce(array_agg(disbursements.idempotency_key), '{}')`.as('keys'));
  const issued = borrower.phone
    ? liveCodeContextSql({ phone: borrower.phone, purpose: 'withdrawal' })
    : sql<string | null>`null`;
  const row = await runningLoanQuery(deps.db, borrower.id)
    .select([
      ...loanFactsSql(sql.ref<string>('applications.id')),
      issued.as('issued'),
      recorded.as('recorded'),
    ])
    .executeTakeFirst();
  if (row) {
    const { issued: context, recorded: keys, ...loan } = row;
    return { read: toLoanRead(loan), issued: context, recorded: new Set(keys) };
  }
  const alone = await deps.db
    .selectNoFrom([issued.as('issued'), recorded.as('recorded')])
    .executeTakeFirstOrThrow();
  return { read: toLoanRead(undefined), issued: alone.issued, recorded: new Set(alone.recorded) };
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
  // The plan on the locked row: its fee is the one recorded (and shown before the code was sent).
  const now = await withdrawalPlan(
    trx,
    loan,
    amountMinor,
    plan?.deps ?? { config: { timeZone: when.timeZone } },
    when.today,
  );
  if (plan && now.digest !== plan.digest) throw new AppError('WITHDRAWAL_PLAN_CHANGED');
  return trx
    .insertInto('disbursements')
    .values({
      application_id: loan.id,
      amount: amountMinor,
      fee_minor: now.feeMinor,
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
 * is available and a retried request is answered with the original result. A borrower's requests that
 * arrive while one is in flight wait for it in this instance (docs/decisions/024): once it has spent the
 * code, they are refused together after one read they share, without a transaction.
 */
export async function requestWithdrawal(deps: AppDeps, borrower: User, input: WithdrawalRequest) {
  return deps.perRecord.run(`withdrawal:${borrower.id}`, (batch) =>
    request(deps, borrower, input, () => batch.once('borrower', () => readBorrower(deps, borrower))),
  );
}

async function request(
  deps: AppDeps,
  borrower: User,
  input: WithdrawalRequest,
  readState: () => ReturnType<typeof readBorrower>,
) {
  const phone = borrower.phone;
  const amountMinor = toMinor(input.amount);
  const when = { today: today(deps), timeZone: deps.config.timeZone };
  const { read, issued, recorded } = await readState();
  const replay = recorded.has(input.idempotencyKey)
    ? await existingFor(deps, borrower.id, input.idempotencyKey)
    : undefined;
  if (replay) return { disbursement: replay, replayed: true };
  if (!phone) throw new AppError('LOAN_NOT_FOUND');

  // Checked before the code, so a wrong amount never spends one of the code's five tries.
  const { loan } = checkLoanForWithdrawal(read, amountMinor, when);
  // No code can be used (spent, expired or out of tries): the answer is the one spending it would give.
  if (issued === null) throw codeRefused('WITHDRAWAL_CODE_INVALID');
  // The code is bound to the plan the borrower was shown; recomputed now with the same inputs it must be
  // the same. A code for this withdrawal but another plan is refused as such, without spending a try.
  const { digest } = await withdrawalPlan(deps.db, loan, amountMinor, deps, when.today);
  const context = withdrawalContext(loan, amountMinor, digest);
  if (issued !== context && isContextForWithdrawal(issued, loan, amountMinor)) {
    // Read again after the plan: another request may have spent the code and changed the plan meanwhile,
    // and then the answer is the spent code's.
    const now = await liveCodeContext(deps.db, { phone, purpose: 'withdrawal' });
    if (now !== null && now !== context && isContextForWithdrawal(now, loan, amountMinor)) {
      throw new AppError('WITHDRAWAL_PLAN_CHANGED');
    }
  }

  try {
    const disbursement = await withVerifiedCode(
      codeCheckDeps(deps),
      { phone, purpose: 'withdrawal', context },
      input.code,
      (trx) =>
        insertDisbursement(trx, borrower.id, amountMinor, input.idempotencyKey, when, { digest, deps }),
      'WITHDRAWAL_CODE_INVALID',
    );
    publishAfterCommit(deps, { type: 'disbursements-changed' });
    return { disbursement, replayed: false };
  } catch (error) {
    // Two copies of the same request raced (on two instances): the loser reports the winner's result.
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
