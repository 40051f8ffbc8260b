import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from './auth/passwords';
import { ensureBootstrapAdmin } from './bootstrap-admin';
import { createTestApp, type TestApp } from './test-support/test-app';

describe('ensureBootstrapAdmin', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const admins = () => t!.db.selectFrom('users').selectAll().where('role', '=', 'admin').execute();

  it('creates one admin that must change the password, returns the password once, then null', async () => {
    t = await createTestApp();
    const password = await ensureBootstrapAdmin({ db: t.db });
    expect(password).toMatch(/^[A-Za-z2-9]{14}$/);
    const [admin, ...others] = await admins();
    expect(others).toEqual([]);
    expect(admin).toMatchObject({
      username: 'admin',
      phone: null,
      must_change_password: true,
      status: 'active',
    });
    expect(admin!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(admin!.password_hash, password!)).toBe(true);

    expect(await ensureBootstrapAdmin({ db: t.db })).toBeNull();
    expect(await admins()).toHaveLength(1);

    const login = await t.agent().post('/api/auth/login', { identifier: 'admin', password });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: 'admin', mustChangePassword: true });
  });

  it('five concurrent calls create exactly one admin and return exactly one password', async () => {
    t = await createTestApp();
    const results = await Promise.all(Array.from({ length: 5 }, () => ensureBootstrapAdmin({ db: t!.db })));
    const passwords = results.filter((p) => p !== null);
    expect(passwords).toHaveLength(1);
    const all = await admins();
    expect(all).toHaveLength(1);
    expect(await verifyPassword(all[0]!.password_hash, passwords[0]!)).toBe(true);
  });

  it('creates nothing when an admin already exists under another name', async () => {
    t = await createTestApp();
    await t.createUser({ role: 'admin', username: 'chief' });
    expect(await ensureBootstrapAdmin({ db: t.db })).toBeNull();
    expect((await admins()).map((a) => a.username)).toEqual(['chief']);
  });
});
