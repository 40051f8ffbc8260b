import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from './auth/passwords';
import { bootstrapAdminNotice, ensureBootstrapAdmin, newAdminCredentials } from './bootstrap-admin';
import { createTestApp, type TestApp } from './test-support/test-app';

describe('ensureBootstrapAdmin', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const admins = () => t!.db.selectFrom('users').selectAll().where('role', '=', 'admin').execute();

  /** Signs in with what was printed; the account works and asks for a new password first. */
  async function signsIn(admin: { username: string; password: string }) {
    const login = await t!.agent().post('/api/auth/login', {
      identifier: admin.username,
      password: admin.password,
    });
    expect(login.status, login.text).toBe(200);
    expect(login.body.user).toMatchObject({ role: 'admin', mustChangePassword: true });
  }

  it('creates one admin that must change the password, returns how to sign in once, then null', async () => {
    t = await createTestApp();
    const created = await ensureBootstrapAdmin({ db: t.db });
    expect(created).toMatchObject({
      username: 'admin',
      password: expect.stringMatching(/^[A-Za-z2-9]{14}$/),
    });
    const [admin, ...others] = await admins();
    expect(others).toEqual([]);
    expect(admin).toMatchObject({
      username: 'admin',
      phone: null,
      must_change_password: true,
      status: 'active',
    });
    expect(admin!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin!.password_hash, created!.password)).toBe(true);

    expect(await ensureBootstrapAdmin({ db: t.db })).toBeNull();
    expect(await admins()).toHaveLength(1);
    await signsIn(created!);
  });

  it('five concurrent calls create exactly one admin and return exactly one password', async () => {
    t = await createTestApp();
    const results = await Promise.all(Array.from({ length: 5 }, () => ensureBootstrapAdmin({ db: t!.db })));
    const created = results.filter((p) => p !== null);
    expect(created).toHaveLength(1);
    const all = await admins();
    expect(all).toHaveLength(1);
    expect(await verifyPassword(all[0]!.password_hash, created[0]!.password)).toBe(true);
  });

  it('creates nothing when an active admin already exists under another name', async () => {
    t = await createTestApp();
    await t.createUser({ role: 'admin', username: 'chief' });
    expect(await ensureBootstrapAdmin({ db: t.db })).toBeNull();
    expect((await admins()).map((a) => a.username)).toEqual(['chief']);
  });

  it('a non-admin called "admin" (any case) does not block it: the administrator gets the next free name', async () => {
    t = await createTestApp();
    await t.createUser({ role: 'officer', username: 'Admin' });
    await t.createUser({ role: 'borrower', username: 'admin-2' });
    const created = await ensureBootstrapAdmin({ db: t.db });
    expect(created?.username).toBe('admin-3');
    expect((await admins()).map((a) => a.username)).toEqual(['admin-3']);
    await signsIn(created!);
    expect(await ensureBootstrapAdmin({ db: t.db })).toBeNull();
  });

  it('an install whose only admins are deactivated gets a working one', async () => {
    t = await createTestApp();
    await t.createUser({ role: 'admin', username: 'admin', status: 'deactivated' });
    const created = await ensureBootstrapAdmin({ db: t.db });
    expect(created?.username).toBe('admin-2');
    await signsIn(created!);
  });

  it('uses the credentials a first start hashed ahead, and only when it creates the admin', async () => {
    t = await createTestApp();
    const prepared = newAdminCredentials();
    const { password } = await prepared;
    const created = await ensureBootstrapAdmin({ db: t.db }, prepared);
    expect(created).toEqual({ username: 'admin', password });
    await signsIn(created!);
    // Prepared again while an admin exists: nothing is created and nothing is printed.
    expect(await ensureBootstrapAdmin({ db: t.db }, newAdminCredentials())).toBeNull();
    expect(await admins()).toHaveLength(1);
  });

  it('the printed notice names the username and the one-time password', () => {
    const notice = bootstrapAdminNotice({ username: 'admin-2', password: 'Abc2345678defg' });
    expect(notice).toContain('username: admin-2');
    expect(notice).toContain('password: Abc2345678defg');
    expect(notice).toContain('You must change it at first login.');
  });
});
