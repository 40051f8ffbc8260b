import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../auth/passwords';
import { requirePermission, requireUser } from '../../auth/plugin';
import { expectError } from '../../test-support/api-assertions';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

const NEW_PASSWORD = 'a-brand-new-password';

describe('password change and forced change', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      routes: (app) => {
        app.get('/api/test/guarded', { preValidation: requireUser() }, async () => ({ ok: true }));
        app.post('/api/test/guarded', { preValidation: requireUser() }, async () => ({ ok: true }));
        app.get('/api/test/staff', { preValidation: requirePermission('backOffice.view') }, async () => ({
          ok: true,
        }));
      },
    });
  });
  afterAll(() => t?.close());

  const change = (
    agent: Agent,
    currentPassword: unknown,
    newPassword: unknown,
    confirmPassword = newPassword,
  ) => agent.post('/api/auth/password', { currentPassword, newPassword, confirmPassword });
  const userRow = (id: string) =>
    t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('a user with a temporary password is held at the password change', async () => {
    const { user, password } = await t.createUser({ role: 'officer', mustChangePassword: true });
    const agent = await t.loginAs(user.username!, password);
    expect((await agent.get('/api/me')).body.user.mustChangePassword).toBe(true);

    expectError(await agent.get('/api/test/guarded'), 403, 'PASSWORD_CHANGE_REQUIRED');
    expectError(await agent.post('/api/test/guarded'), 403, 'PASSWORD_CHANGE_REQUIRED');
    expectError(await agent.get('/api/test/staff'), 403, 'PASSWORD_CHANGE_REQUIRED');
    // What it still may do: see itself, and log out (below), and change the password.
    expect((await agent.get('/api/me')).status).toBe(200);

    const other = await t.loginAs(user.username!, password);
    const wrong = await change(agent, 'not-my-password', NEW_PASSWORD);
    expectError(wrong, 400, 'CURRENT_PASSWORD_WRONG', 'Current password is incorrect');
    expect(wrong.body.error.fields.currentPassword.message).toBe('Current password is incorrect');
    expect((await userRow(user.id)).must_change_password).toBe(true);

    const response = await change(agent, password, NEW_PASSWORD);
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: user.id, mustChangePassword: false });
    expect(response.body.csrfToken).toBe(agent.csrfToken);

    const row = await userRow(user.id);
    expect(row.must_change_password).toBe(false);
    expect(await verifyPassword(row.password_hash, NEW_PASSWORD)).toBe(true);
    expect(row.password_hash).not.toContain(NEW_PASSWORD);

    // This session carries on and is released; the other session of the user is ended.
    expect((await agent.get('/api/test/guarded')).body).toEqual({ ok: true });
    expect((await agent.get('/api/test/staff')).body).toEqual({ ok: true });
    expect((await other.get('/api/me')).body.user).toBeNull();
    expect(
      await t.db.selectFrom('sessions').select('id_hash').where('user_id', '=', user.id).execute(),
    ).toHaveLength(1);

    // The old password is gone, the new one works.
    expectError(
      await t.agent().post('/api/auth/login', { identifier: user.username, password }),
      401,
      'INVALID_CREDENTIALS',
    );
    expect(
      (await t.agent().post('/api/auth/login', { identifier: user.username, password: NEW_PASSWORD })).status,
    ).toBe(200);
  });

  it('a user with a temporary password can log out', async () => {
    const { user, password } = await t.createUser({ role: 'borrower', mustChangePassword: true });
    const agent = await t.loginAs(user.phone!, password);
    expect((await agent.post('/api/auth/logout')).status).toBe(200);
    expect((await agent.get('/api/me')).body.user).toBeNull();
  });

  it('needs a session', async () => {
    expectError(await change(t.agent(), 'whatever-1', NEW_PASSWORD), 401, 'UNAUTHENTICATED');
  });

  it('ends other sessions of the user, not those of other users', async () => {
    const a = await t.createUser({ role: 'borrower' });
    const b = await t.createUser({ role: 'borrower' });
    const a1 = await t.loginAs(a.user.phone!, a.password);
    const a2 = await t.loginAs(a.user.phone!, a.password);
    const b1 = await t.loginAs(b.user.phone!, b.password);
    expect((await change(a1, a.password, NEW_PASSWORD)).status).toBe(200);
    expect((await a1.get('/api/me')).body.user.id).toBe(a.user.id);
    expect((await a2.get('/api/me')).body.user).toBeNull();
    expect((await b1.get('/api/me')).body.user.id).toBe(b.user.id);
  });

  it.each([
    [
      'a short new password',
      'short1',
      'short1',
      'PASSWORD_TOO_SHORT',
      'Password must be at least 8 characters',
    ],
    [
      'a mismatched confirmation',
      NEW_PASSWORD,
      `${NEW_PASSWORD}!`,
      'PASSWORDS_DO_NOT_MATCH',
      'Passwords do not match',
    ],
    ['a missing new password', '', '', 'SIGNUP_FIELDS_REQUIRED', 'Please fill in all fields'],
  ] as const)('refuses %s and keeps the old password', async (_name, newPassword, confirm, code, message) => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    const agent = await t.loginAs(user.phone!, password);
    expectError(await change(agent, password, newPassword, confirm), 400, code, message);
    expect(await verifyPassword((await userRow(user.id)).password_hash, password)).toBe(true);
  });

  it('refuses the current password as the new one', async () => {
    const { user, password } = await t.createUser({ role: 'officer', mustChangePassword: true });
    const agent = await t.loginAs(user.username!, password);
    expectError(await change(agent, password, password), 400, 'PASSWORD_UNCHANGED');
    expect((await userRow(user.id)).must_change_password).toBe(true);
  });
});
