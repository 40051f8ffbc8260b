import type { Insertable } from 'kysely';
import { hashPassword } from '../src/server/auth/passwords';
import { DEFAULT_PRIVACY_NOTICE_VERSION } from '../src/server/config';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import type { UsersTable } from '../src/server/db/schema';

type BenchUser = Pick<Insertable<UsersTable>, 'username' | 'phone' | 'role' | 'privacy_notice_version'>;

/** A borrower who agreed to the notice the server ships. */
export const borrowerWithPhone = (phone: string): BenchUser => ({
  username: null,
  phone,
  role: 'borrower',
  privacy_notice_version: DEFAULT_PRIVACY_NOTICE_VERSION,
});

/**
 * A migrated PGlite in `dataDir` holding `users`, each with `password`: the browser benches (first load,
 * Lighthouse) start the built server on it and sign in as them.
 */
export async function seedBrowserBench(dataDir: string, password: string, users: BenchUser[]) {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    await migrateToLatest(database.db);
    const passwordHash = await hashPassword(password);
    await database.db
      .insertInto('users')
      .values(users.map((user) => ({ ...user, password_hash: passwordHash })))
      .execute();
  } finally {
    await database.close();
  }
}
