import { AppError } from '../../../domain/errors';
import type { UpdateUserInput } from '../../../domain/schemas/staff';
import { recordAudit } from '../../audit/audit';
import { assertStrongPassword } from '../../auth/password-strength';
import { hashPassword } from '../../auth/passwords';
import { destroyUserSessions } from '../../auth/sessions';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { isUniqueViolation } from '../../lib/db-errors';
import { lockUserForRemoval } from './user-rules';

/** New phone and a temporary password (changed at next login; sessions end); optionally a new role. */
export async function updateUser(deps: AppDeps, ctx: StaffContext, id: string, input: UpdateUserInput) {
  await assertStrongPassword(input.password, 'password', [input.phone]);
  const passwordHash = await hashPassword(input.password);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const before =
        input.role !== undefined && id !== ctx.staff.id
          ? await lockUserForRemoval(trx, ctx.staff, id, { removesAdminRole: () => input.role !== 'admin' })
          : await trx.selectFrom('users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const role = input.role ?? before.role;
      if (role !== before.role && ctx.staff.id === id) throw new AppError('CANNOT_CHANGE_SELF');
      // A borrower's account holds their loan; it does not become a staff account (or back).
      if ((before.role === 'borrower') !== (role === 'borrower')) throw new AppError('ROLE_INVALID');
      const after = await trx
        .updateTable('users')
        .set({ phone: input.phone, role, password_hash: passwordHash, must_change_password: true })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await destroyUserSessions(trx, id);
      await recordAudit(trx, ctx.actor, {
        action: 'user.update',
        targetType: 'user',
        targetId: id,
        before: { phone: before.phone, role: before.role, mustChangePassword: before.must_change_password },
        after: { phone: after.phone, role: after.role, mustChangePassword: true, password: 'reset' },
      });
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('USER_TAKEN');
    throw error;
  }
}
