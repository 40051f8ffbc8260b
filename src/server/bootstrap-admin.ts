import { sql } from 'kysely';
import { temporaryPassword } from './auth/crypto';
import { hashPassword } from './auth/passwords';
import type { AppDeps } from './deps';

export interface BootstrapAdmin {
  username: string;
  /** One-time: must be changed at first login; shown once and never stored in clear. */
  password: string;
}

const PREFERRED_USERNAME = 'admin';

/** A first admin's one-time password and its hash. */
export interface AdminCredentials {
  password: string;
  passwordHash: string;
}

export async function newAdminCredentials(): Promise<AdminCredentials> {
  const password = temporaryPassword();
  return { password, passwordHash: await hashPassword(password) };
}

/**
 * First start: when no active admin exists, create one with a one-time password that must be changed at
 * first login, and return how to sign in so the caller prints it exactly once; null when nothing was
 * created. The name is `admin`, or `admin-2`, `admin-3`… when a user (of any role) already has it, so a
 * borrower or officer called "admin" never leaves an install without a working administrator. The
 * transaction-scoped advisory lock makes instances starting together create one admin, not two.
 */
export async function ensureBootstrapAdmin(
  deps: Pick<AppDeps, 'db'>,
  /** Made ahead by a start that knows it is the first (main.ts); used only if an admin is created. */
  prepared?: Promise<AdminCredentials>,
): Promise<BootstrapAdmin | null> {
  const hasActiveAdmin = async (db: Pick<AppDeps, 'db'>['db']) =>
    (await db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .executeTakeFirst()) !== undefined;
  // The usual start: nothing to do, and no password hashed for nothing.
  if (await hasActiveAdmin(deps.db)) return null;
  const { password, passwordHash } = await (prepared ?? newAdminCredentials());
  return deps.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('hiram:bootstrap-admin'))`.execute(trx);
    if (await hasActiveAdmin(trx)) return null;
    const taken = new Set(
      (
        await trx
          .selectFrom('users')
          .select(sql<string>`lower(username)`.as('name'))
          .where(sql<boolean>`lower(username) like ${`${PREFERRED_USERNAME}%`}`)
          .execute()
      ).map((row) => row.name),
    );
    let username = PREFERRED_USERNAME;
    for (let n = 2; taken.has(username); n += 1) username = `${PREFERRED_USERNAME}-${n}`;
    await trx
      .insertInto('users')
      .values({
        username,
        phone: null,
        password_hash: passwordHash,
        role: 'admin',
        must_change_password: true,
      })
      .execute();
    return { username, password };
  });
}

/** What the server prints once on first start: how to sign in as the new administrator. */
export function bootstrapAdminNotice(admin: BootstrapAdmin): string {
  return [
    '',
    '================================================================',
    ' First start: an administrator account was created.',
    `   username: ${admin.username}`,
    `   password: ${admin.password}`,
    ' This password is shown only once. You must change it at first login.',
    '================================================================',
    '',
  ].join('\n');
}
