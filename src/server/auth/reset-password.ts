import type { Transaction } from 'kysely';
import { AppError } from '../../domain/errors';
import { codeSms } from '../../domain/sms-texts';
import { notifyBorrower, recordAudit } from '../audit/audit';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { randomToken, temporaryPassword } from './crypto';
import { passwordResetTarget } from './password-reset-codes';
import { hashPassword } from './passwords';
import { destroyUserSessions } from './sessions';
import type { StaffContext } from './staff-context';
import { codeSendingDeps, deliverCode, reserveCode } from './verification-codes';

/** A temporary password (shown once, for the admin to hand over) and its hash. */
export async function newTemporaryPassword() {
  const password = temporaryPassword();
  return { password, passwordHash: await hashPassword(password) };
}

/** The user row, locked for a change by staff; NOT_FOUND when there is none. */
export async function lockUser(trx: Transaction<Database>, userId: string) {
  const user = await trx
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!user) throw new AppError('NOT_FOUND');
  return user;
}

/**
 * Gives a user a temporary password (returned once, for the admin to hand over), forces a change at the
 * next login and ends every session the user has.
 */
export async function resetPassword(
  deps: AppDeps,
  ctx: StaffContext,
  userId: string,
  options: { reason?: string | null; loanId?: string | null } = {},
): Promise<string> {
  const { password, passwordHash } = await newTemporaryPassword();
  await deps.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, userId);
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: true })
      .where('id', '=', userId)
      .execute();
    await destroyUserSessions(trx, userId);
    await recordAudit(trx, ctx.actor, {
      action: 'user.reset_password',
      targetType: 'user',
      targetId: userId,
      loanId: options.loanId ?? null,
      before: { mustChangePassword: user.must_change_password },
      after: { mustChangePassword: true },
      reason: options.reason ?? null,
    });
    if (user.role === 'borrower') {
      await notifyBorrower(trx, {
        borrowerId: userId,
        applicationId: options.loanId ?? null,
        kind: 'password_reset',
      });
    }
  });
  return password;
}

/**
 * A staff-initiated reset for a borrower (Loan Servicing): the staff member never sees a password or a
 * code. The old password stops working, every session ends, and a password-reset code goes by SMS to the
 * borrower's own phone, telling them to choose a new password through "Forgot password?" (the same code
 * rules, resend wait and ceilings as a code they ask for themselves; the staff member's address takes the
 * per-address slot). Audited, and shown in the borrower's history. The SMS is sent after the commit; if it
 * cannot be delivered the code is removed and the error answered, so the reset can be repeated at once.
 */
export async function resetPasswordByCode(
  deps: AppDeps,
  ctx: StaffContext,
  userId: string,
  options: { reason: string | null; loanId: string | null; clientIp: string },
): Promise<void> {
  const unusableHash = await hashPassword(randomToken());
  const sending = codeSendingDeps(deps);
  const sent = await deps.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, userId);
    if (!user.phone) throw new AppError('NOT_FOUND');
    if (user.status !== 'active') throw new AppError('ACCOUNT_DEACTIVATED');
    const target = passwordResetTarget(user.phone, user.id);
    const reserved = await reserveCode(trx, sending, options.clientIp, target);
    await trx.updateTable('users').set({ password_hash: unusableHash }).where('id', '=', userId).execute();
    await destroyUserSessions(trx, userId);
    await recordAudit(trx, ctx.actor, {
      action: 'user.reset_password',
      targetType: 'user',
      targetId: userId,
      loanId: options.loanId,
      after: { password: 'reset' },
      reason: options.reason,
    });
    if (user.role === 'borrower') {
      await notifyBorrower(trx, {
        borrowerId: userId,
        applicationId: options.loanId,
        kind: 'password_reset',
      });
    }
    return { reserved, target, language: user.language };
  });
  await deliverCode(sending, sent.reserved, sent.target, (code) =>
    codeSms.passwordResetByStaff(sent.language, code),
  );
}
