import { AppError } from '../../../domain/errors';
import type { CreateUserInput } from '../../../domain/schemas/staff';
import { recordAudit } from '../../audit/audit';
import { assertStrongPassword } from '../../auth/password-strength';
import { hashPassword } from '../../auth/passwords';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { isUniqueViolation } from '../../lib/db-errors';

/** Adds a user; the password the admin chose is temporary, so the user sets their own at first login. */
export async function createUser(deps: AppDeps, ctx: StaffContext, input: CreateUserInput) {
  await assertStrongPassword(input.password, 'password', [input.phone, input.username]);
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await deps.db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          username: input.username,
          phone: input.phone,
          role: input.role,
          password_hash: passwordHash,
          must_change_password: true,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, ctx.actor, {
        action: 'user.create',
        targetType: 'user',
        targetId: user.id,
        after: { username: user.username, phone: user.phone, role: user.role },
      });
      return user;
    });
    publishAfterCommit(deps, { type: 'users-changed' });
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('USER_TAKEN');
    throw error;
  }
}
