import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { expectError } from '../../test-support/api-assertions';
import { storedAuditEvent } from '../../test-support/seed';
import { createTestApp, type TestApp } from '../../test-support/test-app';

const BOTH_REQUIRED = 'Please enter phone or username and password';
const INCORRECT = 'Incorrect phone, username or password';
const DEACTIVATED = 'This account is deactivated';
const lockedFor = (n: number) => `Too many attempts. Try again in ${n} minutes.`;
const LOCKED = lockedFor(15);

describe('login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const login = (identifier: unknown, password: unknown, agent = t.agent()) =>
    agent.post('/api/auth/login', { identifier, password });

  it.each([
    ['no identifier', { password: 'secret-123' }],
    ['no password', { identifier: '09170000000' }],
    ['neither', {}],
    ['empty identifier', { identifier: '', password: 'secret-123' }],
    ['blank identifier', { identifier: '   ', password: 'secret-123' }],
    ['empty password', { identifier: 'someone', password: '' }],
    ['null values', { identifier: null, password: null }],
  ])('requires both fields: %s', async (_name, body) => {
    const response = await t.agent().post('/api/auth/login', body);
    expectError(response, 400, 'LOGIN_FIELDS_REQUIRED', BOTH_REQUIRED);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('requires both fields when the body is empty or not JSON', async () => {
    for (const raw of ['', 'not json']) {
      const response = await t.agent().request('POST', '/api/auth/login', {
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'LOGIN_FIELDS_REQUIRED', BOTH_REQUIRED);
    }
  });

  it('answers an unknown user and a wrong password with the identical body', async () => {
    const { user } = await t.createUser({ role: 'borrower' });
    const unknown = await login(t.nextPhone(), 'whatever-123');
    const wrong = await login(user.phone, 'whatever-123');
    expectError(unknown, 401, 'INVALID_CREDENTIALS', INCORRECT);
    expect(wrong.status).toBe(unknown.status);
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    // Over-long values (no account can have them) are refused before any lookup, with the same message.
    expectError(await login('x'.repeat(65), 'whatever-123'), 401, 'INVALID_CREDENTIALS', INCORRECT);
    expectError(await login(user.phone, 'x'.repeat(129)), 401, 'INVALID_CREDENTIALS', INCORRECT);
  });

  it('logs in by phone and returns the user, the CSRF token and a session cookie', async () => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    const response = await login(user.phone, password);
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: user.id, phone: user.phone, role: 'borrower' });
    expect(response.body.user).not.toHaveProperty('password_hash');
    expect(response.body.user).not.toHaveProperty('passwordHash');
    expect(response.body.csrfToken).toMatch(/^[\w-]{40,}$/);
    expect(response.cookies.map((c) => c.name)).toEqual(['hiram_session']);
    const row = await t.db
      .selectFrom('users')
      .select('last_login_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.last_login_at).toBeInstanceOf(Date);
  });

  it('logs in by username, case-insensitively, and trims the identifier', async () => {
    const { user, password } = await t.createUser({ role: 'officer', username: 'Maria.Santos' });
    for (const identifier of ['Maria.Santos', 'maria.santos', 'MARIA.SANTOS', '  maria.santos  ']) {
      const response = await login(identifier, password);
      expect(response.status, identifier).toBe(200);
      expect(response.body.user).toMatchObject({ id: user.id, username: 'Maria.Santos', role: 'officer' });
    }
    // The password is not case-insensitive.
    expectError(await login('maria.santos', password.toUpperCase()), 401, 'INVALID_CREDENTIALS', INCORRECT);
  });

  it('refuses a deactivated account only to someone who knows the password', async () => {
    const { user, password } = await t.createUser({ role: 'borrower', status: 'deactivated' });
    const right = await login(user.phone, password);
    expectError(right, 403, 'ACCOUNT_DEACTIVATED', DEACTIVATED);
    expect(right.headers['set-cookie']).toBeUndefined();
    expectError(await login(user.phone, 'not-the-password'), 401, 'INVALID_CREDENTIALS', INCORRECT);
    expect(
      await t.db.selectFrom('sessions').select('id_hash').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });

  const lockRow = (userId: string) =>
    t.db.selectFrom('login_throttle').selectAll().where('key', '=', `account:${userId}`).executeTakeFirst();
  /** The running wait has passed (as if its minutes went by). */
  const waitPasses = (userId: string) =>
    sql`update login_throttle set locked_until = now() - interval '1 second' where key = ${`account:${userId}`}`.execute(
      t.db,
    );

  it('makes an account wait 1 minute after 5 failures, refusing even the right password', async () => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    for (let i = 0; i < 5; i++) {
      expectError(await login(user.phone, `wrong-${i}-password`), 401, 'INVALID_CREDENTIALS', INCORRECT);
    }
    const locked = await login(user.phone, password);
    expectError(locked, 429, 'TOO_MANY_ATTEMPTS', lockedFor(1));
    expect(locked.body.error.params).toEqual({ n: 1 });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(locked.headers['set-cookie']).toBeUndefined();
    // From another address too: the wait is on the account.
    expectError(await login(user.phone, password, t.agent()), 429, 'TOO_MANY_ATTEMPTS', lockedFor(1));
    expect(
      await t.db.selectFrom('sessions').select('id_hash').where('user_id', '=', user.id).execute(),
    ).toEqual([]);

    // Once the wait has passed, the right password works and clears the count.
    await waitPasses(user.id);
    expect((await login(user.phone, password)).status).toBe(200);
    expect(await lockRow(user.id)).toBeUndefined();
  });

  it('doubles the wait with each further failure, up to the cap (60 minutes): nobody is locked out for good', async () => {
    const { user, password } = await t.createUser({ role: 'admin' });
    for (let i = 0; i < 5; i++) expect((await login(user.username, 'wrong-password')).status).toBe(401);
    for (const minutes of [2, 4, 8, 16, 32, 60, 60]) {
      await waitPasses(user.id);
      expect((await login(user.username, 'wrong-password')).status).toBe(401);
      const locked = await login(user.username, password);
      expectError(locked, 429, 'TOO_MANY_ATTEMPTS', lockedFor(minutes));
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(minutes * 60);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan((minutes - 1) * 60);
    }
    // Refused attempts during a wait neither count nor lengthen it.
    expect((await lockRow(user.id))?.failures).toBe(12);
    await waitPasses(user.id);
    expect((await login(user.username, password)).status).toBe(200);
  });

  it('counts failures per account, whether the phone or the username was typed', async () => {
    const { user, password } = await t.createUser({ role: 'officer', username: 'Two.Names' });
    for (const identifier of ['two.names', user.phone, 'TWO.NAMES', user.phone, 'Two.Names'])
      expect((await login(identifier, 'wrong-password')).status).toBe(401);
    expectError(await login(user.phone, password), 429, 'TOO_MANY_ATTEMPTS', lockedFor(1));
    expectError(await login('two.names', password), 429, 'TOO_MANY_ATTEMPTS', lockedFor(1));
  });

  it('answers an unknown name exactly like an account once it has failed 5 times', async () => {
    const { user } = await t.createUser({ role: 'borrower' });
    const ghost = t.nextPhone();
    for (let i = 0; i < 5; i++) {
      expect((await login(ghost, 'wrong-password')).status).toBe(401);
      expect((await login(user.phone, 'wrong-password')).status).toBe(401);
    }
    const unknown = await login(ghost, 'wrong-password');
    const known = await login(user.phone, 'wrong-password');
    expectError(unknown, 429, 'TOO_MANY_ATTEMPTS', lockedFor(1));
    expect(known.text).toBe(unknown.text);
  });

  it('does not lock after 4 failures, and a success resets the count', async () => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    for (let i = 0; i < 4; i++) expect((await login(user.phone, 'wrong-password')).status).toBe(401);
    expect((await login(user.phone, password)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(user.phone, 'wrong-password')).status).toBe(401);
    expect((await login(user.phone, password)).status).toBe(200);
  });

  it('locks a username regardless of its case', async () => {
    const { password } = await t.createUser({ role: 'finance', username: 'Cashier.One' });
    const identifiers = ['cashier.one', 'CASHIER.ONE', 'Cashier.One', 'cashier.ONE', 'CASHIER.one'];
    for (const identifier of identifiers)
      expect((await login(identifier, 'wrong-password')).status).toBe(401);
    expectError(await login('cashier.one', password), 429, 'TOO_MANY_ATTEMPTS', lockedFor(1));
  });

  it('an admin sees the lock in User Management and unlocks the account at once (audited)', async () => {
    const { user, password } = await t.createUser({ role: 'officer' });
    const a = await t.createUser({ role: 'admin' });
    const admin = await t.loginAs(a.user.username!, a.password);
    for (let i = 0; i < 5; i++) expect((await login(user.phone, 'wrong-password')).status).toBe(401);
    expectError(await login(user.phone, password), 429, 'TOO_MANY_ATTEMPTS', lockedFor(1));

    const listed = await admin.get(`/api/admin/users?phone=${user.phone}`);
    expect(listed.body.items[0]).toMatchObject({ id: user.id });
    expect(Date.parse(listed.body.items[0].lockedUntil)).toBeGreaterThan(Date.now());

    const unlocked = await admin.post(`/api/admin/users/${user.id}/unlock`);
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.body).toMatchObject({ id: user.id, lockedUntil: null });
    expect((await admin.get(`/api/admin/users?phone=${user.phone}`)).body.items[0].lockedUntil).toBeNull();
    const event = await storedAuditEvent(t.db, { action: 'user.unlock', targetId: user.id });
    expect(event.actor_id).toBe(a.user.id);
    expect(event.changes).toMatchObject({ locked: { before: true, after: false } });
    expect((await login(user.phone, password)).status).toBe(200);
    // Only an admin may unlock.
    const officer = await t.loginAs(user.phone!, password);
    expect((await officer.post(`/api/admin/users/${a.user.id}/unlock`)).status).toBe(403);
  });

  it('locks an address after 30 failures across accounts, not other addresses', async () => {
    const attacker = t.agent();
    for (let i = 0; i < 30; i++) {
      expect((await login(t.nextUsername('ghost'), 'wrong-password', attacker)).status).toBe(401);
    }
    const { user, password } = await t.createUser({ role: 'borrower' });
    expectError(await login(user.phone, password, attacker), 429, 'TOO_MANY_ATTEMPTS', LOCKED);
    expect((await login(user.phone, password, t.agent())).status).toBe(200);
  });

  describe('stored plain-text passwords', () => {
    it('the database refuses a password_hash that is not argon2id', async () => {
      const { user } = await t.createUser({ role: 'borrower' });
      for (const value of ['secret123', '$2b$10$abcdefghijklmnopqrstuuP1aG5iH5m0NVQ1ka7jE7M2iN9Hn6a1e', '']) {
        await expect(
          t.db.updateTable('users').set({ password_hash: value }).where('id', '=', user.id).execute(),
        ).rejects.toMatchObject({ code: '23514' });
      }
      await expect(
        t.db
          .insertInto('users')
          .values({ phone: t.nextPhone(), role: 'borrower', password_hash: 'secret123' })
          .execute(),
      ).rejects.toMatchObject({ code: '23514' });
    });

    it('verifyPassword refuses anything that is not an argon2id hash', async () => {
      expect(await verifyPassword('secret123', 'secret123')).toBe(false);
      expect(await verifyPassword('', '')).toBe(false);
      // argon2i / argon2d hashes of the right password are foreign too.
      const argon2id = await hashPassword('secret123');
      expect(await verifyPassword(argon2id, 'secret123')).toBe(true);
      expect(await verifyPassword(argon2id.replace('$argon2id$', '$argon2i$'), 'secret123')).toBe(false);
      expect(await verifyPassword('$argon2id$garbage', 'secret123')).toBe(false);
    });

    it('login never accepts a plain-text value even if one got past the constraint', async () => {
      const other = await createTestApp();
      try {
        const { user } = await other.createUser({ role: 'borrower' });
        await sql`alter table users drop constraint users_hash_not_plain`.execute(other.db);
        await other.db
          .updateTable('users')
          .set({ password_hash: 'secret123' })
          .where('id', '=', user.id)
          .execute();
        const response = await other
          .agent()
          .post('/api/auth/login', { identifier: user.phone, password: 'secret123' });
        expectError(response, 401, 'INVALID_CREDENTIALS', INCORRECT);
        expect(response.headers['set-cookie']).toBeUndefined();
      } finally {
        await other.close();
      }
    });
  });
});
