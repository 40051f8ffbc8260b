import { temporaryPassword } from './auth/crypto';
import { hashPassword } from './auth/passwords';
import type { AppDeps } from './deps';

/**
 * First start: when no admin exists, create `admin` with a one-time password that must be changed at
 * first login. Returns the password so the caller prints it exactly once; null when nothing was created.
 * ON CONFLICT makes two instances starting together create one admin, not two or an error.
 */
export async function ensureBootstrapAdmin(deps: Pick<AppDeps, 'db'>): Promise<string | null> {
  const anyAdmin = await deps.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .executeTakeFirst();
  if (anyAdmin) return null;
  const password = temporaryPassword();
  const inserted = await deps.db
    .insertInto('users')
    .values({
      username: 'admin',
      phone: null,
      password_hash: await hashPassword(password),
      role: 'admin',
      must_change_password: true,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted ? password : null;
}
