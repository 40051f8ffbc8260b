import { sql } from 'kysely';
import type { SecurityResponse } from '../../../domain/schemas/second-factor';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';

/** The signed-in staff member's second factors and open sessions (never a secret). */
export async function getSecurity(deps: AppDeps, user: User): Promise<SecurityResponse> {
  const [totp, codes, passkeys, sessions] = await Promise.all([
    deps.db
      .selectFrom('user_totp')
      .select('confirmed_at')
      .where('user_id', '=', user.id)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirst(),
    deps.db
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow(),
    deps.db
      .selectFrom('user_passkeys')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .execute(),
    deps.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id)
      .where('expires_at', '>', sql<Date>`now()`)
      .where('second_factor_pending', '=', false)
      .executeTakeFirstOrThrow(),
  ]);
  const required: readonly string[] = deps.config.staffSignIn.secondFactorRequiredRoles;
  return {
    secondFactorRequired: required.includes(user.role),
    totp: { enabled: !!totp, enabledAt: totp?.confirmed_at?.toISOString() ?? null },
    recoveryCodesLeft: Number(codes.n),
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.created_at.toISOString(),
      lastUsedAt: p.last_used_at?.toISOString() ?? null,
    })),
    openSessions: Number(sessions.n),
  };
}
