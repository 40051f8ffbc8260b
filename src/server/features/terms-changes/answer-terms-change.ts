import type { Transaction } from 'kysely';
import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { awaitsDecision, isRunning } from '../../../domain/loan/status';
import { storableOrNull } from '../../../domain/schemas/text';
import { codeSms } from '../../../domain/sms-texts';
import { termsChangeMachine } from '../../../domain/status-machines';
import { auditActor, notifyBorrower, recordAudit } from '../../audit/audit';
import { codeCheckDeps, codeSendingDeps, issueCode, withVerifiedCode } from '../../auth/verification-codes';
import type { Database, User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { applyTerms, assertApprovedTermsFit } from '../../loans/update-loan-terms';

/** Where the borrower answered from (kept on the change, like the signature's). */
export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

const codeContext = (change: { id: string; disclosure_sha256: string }) =>
  `change=${change.id};sha=${change.disclosure_sha256}`;

/** The borrower's own change, still proposed (read without a lock: only for checks before a code). */
async function ownProposedChange(deps: AppDeps, borrower: User, changeId: string) {
  const change = await deps.db
    .selectFrom('terms_changes')
    .innerJoin('applications', 'applications.id', 'terms_changes.application_id')
    .selectAll('terms_changes')
    .where('terms_changes.id', '=', changeId)
    .where('applications.borrower_id', '=', borrower.id)
    .executeTakeFirst();
  if (!change) throw new AppError('NOT_FOUND');
  // Accepting and declining start from the same status: a change no longer proposed is not open.
  if (!termsChangeMachine.canApply('accept', change.status)) throw new AppError('TERMS_CHANGE_NOT_OPEN');
  return change;
}

/** The borrower's answer on the change: accepted or declined, when, and from where (like the signature's). */
async function recordAnswer(
  trx: Transaction<Database>,
  changeId: string,
  status: 'accepted' | 'declined',
  borrower: User,
  client: ClientInfo,
) {
  await trx
    .updateTable('terms_changes')
    .set({
      status: termsChangeMachine.statusAfter(status === 'accepted' ? 'accept' : 'decline', 'proposed'),
      decided_at: sql<Date>`now()`,
      decided_by: borrower.id,
      decided_ip: storableOrNull(client.ip),
      decided_user_agent: storableOrNull(client.userAgent ?? null),
    })
    .where('id', '=', changeId)
    .execute();
}

/**
 * Locks the application, then the change, and checks that the change is still proposed and the application
 * still at the stage it was proposed for. Every writer of `terms_changes` locks the application first, so
 * accept, decline, staff withdraw and approval queue on that row.
 */
async function lockOpenChange(trx: Transaction<Database>, borrower: User, changeId: string) {
  const ref = await trx
    .selectFrom('terms_changes')
    .select('application_id')
    .where('id', '=', changeId)
    .executeTakeFirst();
  if (!ref) throw new AppError('NOT_FOUND');
  const application = await trx
    .selectFrom('applications')
    .selectAll()
    .where('id', '=', ref.application_id)
    .where('borrower_id', '=', borrower.id)
    .forUpdate()
    .executeTakeFirst();
  if (!application) throw new AppError('NOT_FOUND');
  const change = await trx
    .selectFrom('terms_changes')
    .selectAll()
    .where('id', '=', changeId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const stageHolds =
    change.stage === 'pending' ? awaitsDecision(application.status) : isRunning(application.status);
  if (change.status !== 'proposed' || !stageHolds) throw new AppError('TERMS_CHANGE_NOT_OPEN');
  return { application, change };
}

/** Sends the acceptance code to the borrower's own phone, bound to this change and its disclosure hash. */
export async function sendTermsCode(deps: AppDeps, borrower: User, changeId: string, clientIp: string) {
  if (!borrower.phone) throw new AppError('NOT_FOUND');
  const change = await ownProposedChange(deps, borrower, changeId);
  return issueCode(
    codeSendingDeps(deps),
    clientIp,
    { phone: borrower.phone, purpose: 'terms_change', context: codeContext(change) },
    (code) => codeSms.termsChange(borrower.language, code, change.amount, change.term_months),
  );
}

/** Accepts with the code: the new terms apply in one transaction and the change binds from now on. */
export async function acceptTermsChange(
  deps: AppDeps,
  borrower: User,
  changeId: string,
  code: string,
  client: ClientInfo,
) {
  if (!borrower.phone) throw new AppError('NOT_FOUND');
  const change = await ownProposedChange(deps, borrower, changeId);
  await withVerifiedCode(
    codeCheckDeps(deps),
    { phone: borrower.phone, purpose: 'terms_change', context: codeContext(change) },
    code,
    async (trx) => {
      const { application, change: open } = await lockOpenChange(trx, borrower, changeId);
      if (open.stage === 'approved') {
        await assertApprovedTermsFit(trx, deps, application.id, open.amount, open.term_months);
      }
      const after = await applyTerms(trx, deps, open.stage, application, open.amount, open.term_months);
      await recordAnswer(trx, changeId, 'accepted', borrower, client);
      await recordAudit(trx, auditActor(borrower, { ip: client.ip }), {
        action: 'terms.accept',
        targetType: open.stage === 'pending' ? 'application' : 'loan',
        targetId: application.id,
        loanId: application.id,
        before: {
          amount: application.amount,
          approvedAmount: application.approved_amount,
          termMonths: application.term_months,
          monthlyPayment: application.monthly_payment,
          awaitingBorrower: true,
        },
        after: {
          amount: after.amount,
          approvedAmount: after.approved_amount,
          termMonths: after.term_months,
          monthlyPayment: after.monthly_payment,
          awaitingBorrower: false,
        },
      });
      await notifyBorrower(trx, {
        borrowerId: borrower.id,
        applicationId: application.id,
        kind: 'terms_change_accepted',
        data: {
          amountMinor: after.amount,
          termMonths: after.term_months,
          monthlyPaymentMinor: after.monthly_payment,
        },
      });
    },
    'CODE_INVALID',
  );
  publishAfterCommit(deps, { type: 'applications-changed' });
}

/** Declines: the change is cancelled and the terms the borrower signed (or last accepted) stay. */
export async function declineTermsChange(
  deps: AppDeps,
  borrower: User,
  changeId: string,
  client: ClientInfo,
) {
  await deps.db.transaction().execute(async (trx) => {
    const { application, change } = await lockOpenChange(trx, borrower, changeId);
    await recordAnswer(trx, changeId, 'declined', borrower, client);
    await recordAudit(trx, auditActor(borrower, { ip: client.ip }), {
      action: 'terms.decline',
      targetType: change.stage === 'pending' ? 'application' : 'loan',
      targetId: application.id,
      loanId: application.id,
      before: { awaitingBorrower: true },
      after: { awaitingBorrower: false },
    });
    await notifyBorrower(trx, {
      borrowerId: borrower.id,
      applicationId: application.id,
      kind: 'terms_change_declined',
      data: { amountMinor: change.amount, termMonths: change.term_months },
    });
  });
  publishAfterCommit(deps, { type: 'applications-changed' });
}
