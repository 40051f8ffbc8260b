import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test-support/api-assertions';
import { type Agent, createTestApp, type TestApp, testConsent } from '../../test-support/test-app';
import { ageVerificationCodes } from '../../test-support/verification-codes';

const NEW_PASSWORD = 'kalamansi tree 27';
const WEAK_MESSAGE = 'This password is too easy to guess. Add more words or characters.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const sendCode = (phone: unknown, agent: Agent = t.agent()) =>
  agent.post('/api/auth/password-reset/code', { phone });
const reset = (phone: string, code: string, password = NEW_PASSWORD, agent: Agent = t.agent()) =>
  agent.post('/api/auth/password-reset', { phone, code, password, confirmPassword: password });
const outbox = (phone: string) => t.deps.notifier.outbox?.(phone) ?? [];
const resetCodes = (phone: string) =>
  t.db
    .selectFrom('verification_codes')
    .selectAll()
    .where('phone', '=', phone)
    .where('purpose', '=', 'password_reset')
    .orderBy('created_at', 'desc')
    .execute();
const userRow = (id: string) =>
  t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const login = (identifier: string, password: string) =>
  t.agent().post('/api/auth/login', { identifier, password });
/** Lets the next code for `phone` go out now (the 60 s resend wait, as if it had passed). */
const ageCodes = (phone: string) => ageVerificationCodes(t.db, phone);

describe('forgotten password: a code to the phone, then a new password', () => {
  it('resets a borrower: sessions end, the forced change is cleared, audited with the user as actor', async () => {
    const b = await t.signUpBorrower();
    await t.db.updateTable('users').set({ must_change_password: true }).where('id', '=', b.user.id).execute();
    const phoneSession = await t.loginAs(b.phone, b.password);
    const laptopSession = await t.loginAs(b.phone, b.password);

    const sent = await sendCode(b.phone);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toEqual({ resendAfterSeconds: 60, expiresInSeconds: 300 });
    const sms = outbox(b.phone)[0];
    expect(sms).toMatchObject({ phone: b.phone, purpose: 'password_reset' });
    expect(sms?.text).toContain('password reset code');
    const code = await t.latestCode(b.phone);
    // Stored hashed, never as the digits.
    const [stored] = await resetCodes(b.phone);
    expect(stored?.code_hash).not.toContain(code);
    expect(stored?.code_hash).toMatch(/^[0-9a-f]{64}$/);

    const wrong = code === '000000' ? '111111' : '000000';
    expectError(
      await reset(b.phone, wrong),
      400,
      'CODE_INVALID',
      'Verification code is incorrect or expired',
    );
    const weak = await reset(b.phone, code, 'password123');
    expectError(weak, 400, 'PASSWORD_TOO_WEAK', WEAK_MESSAGE);
    expect(weak.body.error.fields.password.code).toBe('PASSWORD_TOO_WEAK');
    expectError(
      await t.agent().post('/api/auth/password-reset', {
        phone: b.phone,
        code,
        password: NEW_PASSWORD,
        confirmPassword: 'something else',
      }),
      400,
      'PASSWORDS_DO_NOT_MATCH',
    );
    expect((await userRow(b.user.id)).password_hash).toBe(b.user.password_hash);

    const done = await reset(b.phone, code);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ ok: true });

    expect((await phoneSession.get('/api/me')).body.user).toBeNull();
    expect((await laptopSession.get('/api/me')).body.user).toBeNull();
    expectError(await login(b.phone, b.password), 401, 'INVALID_CREDENTIALS');
    const fresh = await login(b.phone, NEW_PASSWORD);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.user.mustChangePassword).toBe(false);
    expect((await userRow(b.user.id)).must_change_password).toBe(false);

    const audit = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', b.user.id)
      .where('action', '=', 'user.reset_forgotten_password')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: b.user.id, actor_role: 'borrower', target_type: 'user' });
    expect(audit[0]?.actor_username).toBe(b.phone);

    // Single use.
    expectError(await reset(b.phone, code, 'another fine passphrase'), 400, 'CODE_INVALID');
  });

  it('gives no hint whether the phone has an account: same answers, same waits; no SMS for an unknown phone', async () => {
    const b = await t.signUpBorrower();
    const unknown = t.nextPhone();
    const deactivated = await t.createUser({ status: 'deactivated' });
    const phones = [b.phone, unknown, deactivated.user.phone!];

    const first = await Promise.all(phones.map((phone) => sendCode(phone)));
    for (const answer of first) {
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 200,
        body: { resendAfterSeconds: 60, expiresInSeconds: 300 },
      });
    }
    const again = await Promise.all(phones.map((phone) => sendCode(phone)));
    for (const answer of again) {
      expectError(answer, 429, 'CODE_RESEND_TOO_SOON');
      expect(answer.body.error.params.n).toBeGreaterThan(55);
    }
    expect(outbox(b.phone).filter((m) => m.purpose === 'password_reset')).toHaveLength(1);
    expect(outbox(unknown)).toEqual([]);
    expect(outbox(deactivated.user.phone!)).toEqual([]);

    // Without the code nothing can be reset, and the answer is the wrong-code one.
    for (const phone of [unknown, deactivated.user.phone!]) {
      expectError(await reset(phone, '123456'), 400, 'CODE_INVALID');
    }
    expectError(await login(deactivated.user.phone!, NEW_PASSWORD), 401, 'INVALID_CREDENTIALS');
  });

  it('a code dies after five wrong tries, and after five minutes', async () => {
    const b = await t.signUpBorrower();
    await sendCode(b.phone);
    const code = await t.latestCode(b.phone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) expectError(await reset(b.phone, wrong), 400, 'CODE_INVALID');
    expectError(await reset(b.phone, code), 400, 'CODE_INVALID');

    await ageCodes(b.phone);
    await sendCode(b.phone);
    const second = await t.latestCode(b.phone);
    await t.db
      .updateTable('verification_codes')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('phone', '=', b.phone)
      .execute();
    expectError(await reset(b.phone, second), 400, 'CODE_INVALID');
    expect((await login(b.phone, b.password)).status).toBe(200);
  });

  it('a deactivated account cannot reset, even with a code sent before it was deactivated', async () => {
    const b = await t.signUpBorrower();
    await sendCode(b.phone);
    const code = await t.latestCode(b.phone);
    await t.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', b.user.id).execute();
    expectError(await reset(b.phone, code), 403, 'ACCOUNT_DEACTIVATED');
    expect((await userRow(b.user.id)).password_hash).toBe(b.user.password_hash);
  });

  it('works for staff with a phone (they log in with their username afterwards)', async () => {
    const { user } = await t.createUser({ role: 'officer' });
    await sendCode(user.phone);
    const code = await t.latestCode(user.phone!);
    expect((await reset(user.phone!, code)).status).toBe(200);
    const signedIn = await login(user.username!, NEW_PASSWORD);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user.role).toBe('officer');
  });

  it('refuses a malformed phone or code with the form messages', async () => {
    expectError(await sendCode('12345'), 400, 'PHONE_INVALID');
    expectError(await sendCode(''), 400, 'SIGNUP_FIELDS_REQUIRED');
    expectError(await reset(t.nextPhone(), '12ab56'), 400, 'CODE_INVALID');
    expectError(await reset(t.nextPhone(), '123456', 'short'), 400, 'PASSWORD_TOO_SHORT');
  });
});

describe('forgotten-password codes share the sign-up ceilings', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ config: { codeLimits: { perIpPerHour: 2, globalPerHour: 1000 } } });
  });
  afterAll(() => limited?.close());

  it('one address: a sign-up code and a reset code, then the third is refused (429 + Retry-After)', async () => {
    const client = limited.agent();
    expect((await client.post('/api/auth/signup/code', { phone: limited.nextPhone() })).status).toBe(200);
    expect((await client.post('/api/auth/password-reset/code', { phone: limited.nextPhone() })).status).toBe(
      200,
    );
    const refused = await client.post('/api/auth/password-reset/code', { phone: limited.nextPhone() });
    expectError(refused, 429, 'CODE_LIMIT_REACHED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('password strength everywhere a password is chosen', () => {
  it('sign-up', async () => {
    const phone = t.nextPhone();
    const browser = t.agent();
    await browser.post('/api/auth/signup/code', { phone });
    const code = await t.latestCode(phone);
    const weak = await browser.post('/api/auth/signup', {
      phone,
      password: 'password1',
      confirmPassword: 'password1',
      code,
      ...testConsent(t.deps),
    });
    expectError(weak, 400, 'PASSWORD_TOO_WEAK', WEAK_MESSAGE);
    expect(weak.body.error.fields.password.code).toBe('PASSWORD_TOO_WEAK');
    // The code was not spent: a strong password still signs up with it.
    const ok = await browser.post('/api/auth/signup', {
      phone,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      code,
      ...testConsent(t.deps),
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('change password (the phone counts as guessable)', async () => {
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    for (const weak of ['qwertyuiop', `${b.phone}!x`]) {
      const refused = await agent.post('/api/auth/password', {
        currentPassword: b.password,
        newPassword: weak,
        confirmPassword: weak,
      });
      expectError(refused, 400, 'PASSWORD_TOO_WEAK');
      expect(refused.body.error.fields.newPassword.code).toBe('PASSWORD_TOO_WEAK');
    }
  });

  it('staff accounts and their temporary passwords', async () => {
    const { user, password } = await t.createUser({ role: 'admin' });
    const admin = await t.loginAs(user.username!, password);
    const created = await admin.post('/api/admin/users', {
      username: t.nextUsername('officer'),
      phone: t.nextPhone(),
      role: 'officer',
      password: 'password123',
    });
    expectError(created, 400, 'PASSWORD_TOO_WEAK');
    expect(created.body.error.fields.password.code).toBe('PASSWORD_TOO_WEAK');
    const officer = await t.createUser({ role: 'officer' });
    const updated = await admin.post(`/api/admin/users/${officer.user.id}`, {
      phone: officer.user.phone,
      password: 'iloveyou2024',
    });
    expectError(updated, 400, 'PASSWORD_TOO_WEAK');
  });
});
