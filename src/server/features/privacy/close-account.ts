import { todayIn } from '../../../domain/date-text';
import { AppError } from '../../../domain/errors';
import { addMonthsClamped } from '../../../domain/loan/calendar';
import { awaitsDecision, openStatuses } from '../../../domain/loan/status';
import type { CloseAccountInput, CloseAccountResponse } from '../../../domain/schemas/privacy';
import { accountMachine } from '../../../domain/status-machines';
import { type AuditActor, recordAudit } from '../../audit/audit';
import { checkOwnPassword } from '../../auth/login-lockout';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';

/**
 * The borrower closes their own account (RA 10173 erasure, within the lender's duty to keep records).
 * Honoured at once when no application awaits a decision and no loan runs: the account is deactivated, every
 * session ends, the request is recorded with the civil date its personal data will be anonymised on (today
 * + RETENTION_YEARS, docs/decisions/019), and audited — all in one transaction, on the locked user row.
 * Otherwise refused with the reason and, for a loan being repaid, the date of its last payment.
 */
export async function closeAccount(
  deps: AppDeps,
  user: User,
  input: CloseAccountInput,
  actor: AuditActor,
  client: { userAgent: string | null },
): Promise<CloseAccountResponse> {
  if (!(await checkOwnPassword(deps, user, input.password))) {
    throw new AppError('CURRENT_PASSWORD_WRONG', { fields: { password: 'CURRENT_PASSWORD_WRONG' } });
  }
  const today = todayIn(deps.config.timeZone, deps.clock.now());
  const anonymiseOn = addMonthsClamped(today, 12 * deps.config.privacy.retentionYears);
  await deps.db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom('users')
      .select(['id', 'status'])
      .where('id', '=', user.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const closed = accountMachine.statusAfter('close', locked.status);
    const open = await trx
      .selectFrom('applications')
      .select(['loan_number', 'status', 'unpaid_instalments'])
      .where('borrower_id', '=', user.id)
      .where('status', 'in', openStatuses)
      .orderBy('submitted_at', 'desc')
      .executeTakeFirst();
    if (open) {
      const loanNumber = open.loan_number;
      if (awaitsDecision(open.status)) {
        throw new AppError('ACCOUNT_CLOSURE_APPLICATION_OPEN', { params: { loanNumber } });
      }
      // The stored loan facts list every unpaid instalment, oldest first: the last is when it can end.
      const lastDue = open.unpaid_instalments.at(-1)?.[0];
      if (lastDue)
        throw new AppError('ACCOUNT_CLOSURE_LOAN_RUNNING', { params: { loanNumber, date: lastDue } });
      throw new AppError('ACCOUNT_CLOSURE_LOAN_OPEN', { params: { loanNumber } });
    }
    await trx
      .insertInto('account_closures')
      .values({ user_id: user.id, ip: actor.ip, user_agent: client.userAgent, anonymise_on: anonymiseOn })
      // An account an admin reactivated and its owner closes again starts a new retention period.
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          requested_at: new Date(),
          ip: actor.ip,
          user_agent: client.userAgent,
          anonymise_on: anonymiseOn,
          anonymised_at: null,
        }),
      )
      .execute();
    await trx.updateTable('users').set({ status: closed }).where('id', '=', user.id).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    await recordAudit(trx, actor, {
      action: 'user.close_account',
      targetType: 'user',
      targetId: user.id,
      before: { status: locked.status },
      after: { status: closed },
    });
  });
  publishAfterCommit(deps, { type: 'users-changed' });
  return { ok: true, anonymiseOn };
}
