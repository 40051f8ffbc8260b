import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test-support/api-assertions';
import { SoftAuthenticator } from '../../test-support/soft-authenticator';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

/**
 * Staff sign-in (issue #15, docs/decisions/017) with the secure default: admin and finance must use a
 * second factor, officers may.
 */
const ORIGIN = 'http://localhost:3000';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      staffSignIn: {
        secondFactorRequiredRoles: ['admin', 'finance'],
        idleMinutes: 20,
        absoluteHours: 8,
        webauthnRpId: 'localhost',
        webauthnOrigin: ORIGIN,
      },
    },
  });
});
afterAll(() => t?.close());

/** The code an authenticator app shows `stepsAhead` 30-second steps from now. */
const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

async function staff(role: 'officer' | 'finance' | 'admin') {
  const { user, password } = await t.createUser({ role });
  return { user, password, agent: await t.loginAs(user.username!, password) };
}

/** Sets up an authenticator app for a signed-in staff member; the confirming code is this step's. */
async function enrol(agent: Agent) {
  const setup = await agent.post('/api/account/security/totp/setup');
  expect(setup.status, setup.text).toBe(200);
  const confirmed = await agent.post('/api/account/security/totp/confirm', {
    code: codeFor(setup.body.secret),
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret: setup.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

const auditOf = (userId: string, action: string) =>
  t.db
    .selectFrom('audit_events')
    .selectAll()
    .where('target_id', '=', userId)
    .where('action', '=', action)
    .execute();

describe('a role that must use a second factor, not enrolled yet', () => {
  it('signs in with the password but reaches only the enrolment until enrolled', async () => {
    const { user, password } = await t.createUser({ role: 'admin' });
    const agent = t.agent();
    const login = await agent.post('/api/auth/login', { identifier: user.username, password });
    expect(login.status).toBe(200);
    expect(login.body.secondFactor).toEqual({ status: 'enrolmentRequired', methods: [] });
    expect((await agent.get('/api/me')).body.secondFactor).toEqual({
      status: 'enrolmentRequired',
      methods: [],
    });

    for (const path of ['/api/admin/users', '/api/staff/dashboard', '/api/admin/audit']) {
      expectError(await agent.get(path), 403, 'SECOND_FACTOR_ENROLMENT_REQUIRED');
    }
    const security = await agent.get('/api/account/security');
    expect(security.status).toBe(200);
    expect(security.body).toMatchObject({
      secondFactorRequired: true,
      totp: { enabled: false },
      passkeys: [],
    });

    const { secret, recoveryCodes } = await enrol(agent);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await agent.get('/api/admin/users')).status).toBe(200);
    expect((await agent.get('/api/me')).body.secondFactor).toBeUndefined();

    // The secret is stored encrypted, the recovery codes hashed; neither comes back from the API.
    const stored = await t.db.selectFrom('user_totp').selectAll().where('user_id', '=', user.id).execute();
    expect(JSON.stringify(stored)).not.toContain(secret);
    const hashes = await t.db
      .selectFrom('user_recovery_codes')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(hashes).toHaveLength(10);
    expect(JSON.stringify(hashes)).not.toContain(recoveryCodes[0]!.replace('-', ''));
    expect(JSON.stringify(hashes)).not.toContain(recoveryCodes[0]);
    const after = await agent.get('/api/account/security');
    expect(after.body).toMatchObject({ totp: { enabled: true }, recoveryCodesLeft: 10 });
    expect(after.text).not.toContain(secret);
    expectError(await agent.post('/api/account/security/totp/setup'), 409, 'TOTP_ALREADY_ENABLED');

    const [event] = await auditOf(user.id, 'user.totp_enabled');
    expect(event).toMatchObject({ actor_id: user.id, target_type: 'user' });
  });

  it('a wrong or malformed code does not confirm the enrolment', async () => {
    const { agent } = await staff('finance');
    const setup = await agent.post('/api/account/security/totp/setup');
    const wrong = String((Number(codeFor(setup.body.secret)) + 1) % 1_000_000).padStart(6, '0');
    expectError(
      await agent.post('/api/account/security/totp/confirm', { code: wrong }),
      400,
      'SECOND_FACTOR_INVALID',
    );
    expectError(
      await agent.post('/api/account/security/totp/confirm', { code: 'abc' }),
      400,
      'SECOND_FACTOR_INVALID',
    );
    expectError(
      await agent.post('/api/account/security/totp/confirm', {}),
      400,
      'SECOND_FACTOR_CODE_REQUIRED',
    );
    expectError(await agent.get('/api/staff/dashboard'), 403, 'SECOND_FACTOR_ENROLMENT_REQUIRED');
  });

  it('an officer need not enrol, but may', async () => {
    const { agent } = await staff('officer');
    expect((await agent.get('/api/staff/dashboard')).status).toBe(200);
    expect((await agent.get('/api/account/security')).body.secondFactorRequired).toBe(false);
    await enrol(agent);
  });

  it('a borrower has no security page', async () => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    const agent = await t.loginAs(user.phone!, password);
    expectError(await agent.get('/api/account/security'), 403, 'FORBIDDEN');
    expectError(await agent.post('/api/account/security/totp/setup'), 403, 'FORBIDDEN');
  });
});

describe('signing in with a second factor', () => {
  async function enrolled(role: 'officer' | 'finance' | 'admin' = 'admin') {
    const s = await staff(role);
    return { ...s, ...(await enrol(s.agent)) };
  }
  const passwordStep = async (username: string, password: string) => {
    const agent = t.agent();
    const login = await agent.post('/api/auth/login', { identifier: username, password });
    expect(login.status).toBe(200);
    return { agent, login };
  };

  it('the password alone opens nothing but the second-factor step; a current code opens the session', async () => {
    const { user, password, secret } = await enrolled('officer');
    const { agent, login } = await passwordStep(user.username!, password);
    expect(login.body.secondFactor).toEqual({ status: 'pending', methods: ['totp'] });
    expectError(await agent.get('/api/staff/dashboard'), 401, 'SECOND_FACTOR_REQUIRED');
    expectError(await agent.get('/api/account/security'), 401, 'SECOND_FACTOR_REQUIRED');
    expectError(
      await agent.post('/api/auth/password', { currentPassword: password }),
      401,
      'SECOND_FACTOR_REQUIRED',
    );
    expect((await agent.get('/api/me')).body.secondFactor).toEqual({ status: 'pending', methods: ['totp'] });
    const pendingCookie = agent.cookies.get('hiram_session');

    // The enrolment used this step's code: the next step's code (within the ±1 window) is accepted.
    const done = await agent.post('/api/auth/second-factor', { code: codeFor(secret, 1) });
    expect(done.status, done.text).toBe(200);
    expect(done.body.user.id).toBe(user.id);
    expect(done.body.secondFactor).toBeUndefined();
    expect(agent.cookies.get('hiram_session')).not.toBe(pendingCookie);
    expect((await agent.get('/api/staff/dashboard')).status).toBe(200);
    expect((await agent.get('/api/me')).body.secondFactor).toBeUndefined();
  });

  it('refuses a code used before (replay), a code two steps away, and requires CSRF', async () => {
    const { user, password, secret } = await enrolled();
    const first = await passwordStep(user.username!, password);
    const code = codeFor(secret, 1);
    expectError(
      await first.agent.post('/api/auth/second-factor', { code }, { csrf: false }),
      403,
      'CSRF_FAILED',
    );
    expect((await first.agent.post('/api/auth/second-factor', { code })).status).toBe(200);
    const second = await passwordStep(user.username!, password);
    expectError(await second.agent.post('/api/auth/second-factor', { code }), 400, 'SECOND_FACTOR_INVALID');
    // The enrolment step itself is spent too.
    expectError(
      await second.agent.post('/api/auth/second-factor', { code: codeFor(secret, 0) }),
      400,
      'SECOND_FACTOR_INVALID',
    );
    expectError(
      await second.agent.post('/api/auth/second-factor', { code: codeFor(secret, 3) }),
      400,
      'SECOND_FACTOR_INVALID',
    );
  });

  it('without a waiting sign-in there is no second-factor step', async () => {
    expectError(await t.agent().post('/api/auth/second-factor', { code: '123456' }), 401, 'UNAUTHENTICATED');
  });

  it('a recovery code works once, and its use is audited', async () => {
    const { user, password, recoveryCodes } = await enrolled();
    const first = await passwordStep(user.username!, password);
    const used = await first.agent.post('/api/auth/second-factor', { code: recoveryCodes[3]!.toUpperCase() });
    expect(used.status, used.text).toBe(200);
    expect((await first.agent.get('/api/account/security')).body.recoveryCodesLeft).toBe(9);
    const second = await passwordStep(user.username!, password);
    expectError(
      await second.agent.post('/api/auth/second-factor', { code: recoveryCodes[3] }),
      400,
      'SECOND_FACTOR_INVALID',
    );
    expect(await auditOf(user.id, 'user.recovery_code_used')).toHaveLength(1);
  });

  it('five wrong codes lock the second factor for 15 minutes, even for a right code', async () => {
    const { user, password, secret } = await enrolled();
    const { agent } = await passwordStep(user.username!, password);
    for (let i = 0; i < 5; i++) {
      expectError(
        await agent.post('/api/auth/second-factor', { code: 'wrong-code' }),
        400,
        'SECOND_FACTOR_INVALID',
      );
    }
    expectError(
      await agent.post('/api/auth/second-factor', { code: codeFor(secret, 1) }),
      429,
      'TOO_MANY_ATTEMPTS',
    );
    // A new password sign-in does not start the count again.
    const again = await passwordStep(user.username!, password);
    expectError(
      await again.agent.post('/api/auth/second-factor', { code: codeFor(secret, 1) }),
      429,
      'TOO_MANY_ATTEMPTS',
    );
  });

  it('the waiting session lasts 10 minutes; sign-out ends it', async () => {
    const { user, password } = await enrolled();
    const { agent } = await passwordStep(user.username!, password);
    const row = await t.db
      .selectFrom('sessions')
      .select(sql<number>`extract(epoch from (expires_at - now()))`.as('left'))
      .where('user_id', '=', user.id)
      .where('second_factor_pending', '=', true)
      .executeTakeFirstOrThrow();
    expect(Number(row.left)).toBeGreaterThan(9 * 60);
    expect(Number(row.left)).toBeLessThanOrEqual(10 * 60);
    await agent.post('/api/auth/logout');
    expect((await agent.get('/api/me')).body).toEqual({ user: null, csrfToken: null });
  });
});

describe('an admin resets a staff member’s second factor', () => {
  it('with a reason: factors gone, sessions ended, audited; the member must enrol again', async () => {
    const admin = await staff('admin');
    await enrol(admin.agent);
    const member = await staff('finance');
    await enrol(member.agent);
    const path = `/api/admin/users/${member.user.id}/reset-second-factor`;
    expectError(await admin.agent.post(path, {}), 400, 'REASON_REQUIRED');
    expectError(await member.agent.post(path, { reason: 'x' }), 403, 'FORBIDDEN');
    const reset = await admin.agent.post(path, { reason: 'Lost phone' });
    expect(reset.status, reset.text).toBe(200);
    expect((await member.agent.get('/api/me')).body.user).toBeNull();
    const [event] = await auditOf(member.user.id, 'user.second_factor_reset');
    expect(event).toMatchObject({ actor_id: admin.user.id, reason: 'Lost phone' });
    expect(event!.changes).toMatchObject({ totp: { before: true, after: false } });
    const again = await t.loginAs(member.user.username!, member.password);
    expectError(await again.get('/api/staff/dashboard'), 403, 'SECOND_FACTOR_ENROLMENT_REQUIRED');
  });
});

describe('session limits and sign out everywhere', () => {
  it('staff sessions take the configured idle and absolute limits', async () => {
    const { user } = await staff('officer');
    const row = await t.db
      .selectFrom('sessions')
      .select(['idle_minutes', sql<number>`extract(epoch from (expires_at - now()))`.as('left')])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.idle_minutes).toBe(20);
    expect(Number(row.left)).toBeGreaterThan(8 * 3600 - 60);
    expect(Number(row.left)).toBeLessThanOrEqual(8 * 3600);
  });

  it('a staff session idle for longer than the limit is over', async () => {
    const { user, agent } = await staff('officer');
    const idle = async (minutes: number) => {
      await t.db
        .updateTable('sessions')
        .set({ last_seen_at: sql<Date>`now() - make_interval(mins => ${minutes})` })
        .where('user_id', '=', user.id)
        .execute();
      t.forgetCachedSessions();
    };
    await idle(19);
    expect((await agent.get('/api/me')).body.user?.id).toBe(user.id);
    await idle(21);
    expect((await agent.get('/api/me')).body.user).toBeNull();
  });

  it('"sign out everywhere" ends every session of the user, audited', async () => {
    const { user, password, agent } = await staff('officer');
    const other = await t.loginAs(user.username!, password);
    const bystander = await staff('officer');
    const out = await agent.post('/api/auth/logout-everywhere');
    expect(out.status, out.text).toBe(200);
    expect((await agent.get('/api/me')).body.user).toBeNull();
    expect((await other.get('/api/me')).body.user).toBeNull();
    expect((await bystander.agent.get('/api/me')).body.user?.id).toBe(bystander.user.id);
    expect(await auditOf(user.id, 'user.signed_out_everywhere')).toHaveLength(1);
    expectError(await t.agent().post('/api/auth/logout-everywhere'), 401, 'UNAUTHENTICATED');
  });

  it('borrowers can sign out everywhere too', async () => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    const a = await t.loginAs(user.phone!, password);
    const b = await t.loginAs(user.phone!, password);
    expect((await a.post('/api/auth/logout-everywhere')).status).toBe(200);
    expect((await b.get('/api/me')).body.user).toBeNull();
  });
});

describe('passkeys', () => {
  async function registered(role: 'officer' | 'admin' = 'admin') {
    const s = await staff(role);
    const key = new SoftAuthenticator('localhost', ORIGIN);
    const options = await s.agent.post('/api/account/security/passkeys/options');
    expect(options.status, options.text).toBe(200);
    expect(options.body.rp).toEqual({ name: 'Hiram', id: 'localhost' });
    const added = await s.agent.post('/api/account/security/passkeys', {
      name: 'Laptop',
      response: key.register(options.body),
    });
    expect(added.status, added.text).toBe(201);
    return { ...s, key };
  }

  it('a registered passkey counts as the second factor and finishes the sign-in', async () => {
    const { user, password, agent, key } = await registered();
    expect((await agent.get('/api/staff/dashboard')).status).toBe(200);
    expect((await agent.get('/api/account/security')).body.passkeys).toEqual([
      expect.objectContaining({ name: 'Laptop', lastUsedAt: null }),
    ]);
    expect(await auditOf(user.id, 'user.passkey_added')).toHaveLength(1);

    const next = t.agent();
    const login = await next.post('/api/auth/login', { identifier: user.username, password });
    expect(login.body.secondFactor).toEqual({ status: 'pending', methods: ['passkey'] });
    const options = await next.post('/api/auth/second-factor/passkey/options');
    expect(options.status, options.text).toBe(200);
    expect(options.body.allowCredentials).toEqual([expect.objectContaining({ id: key.id })]);
    const answer = key.authenticate(options.body);
    const done = await next.post('/api/auth/second-factor/passkey', { response: answer });
    expect(done.status, done.text).toBe(200);
    expect((await next.get('/api/staff/dashboard')).status).toBe(200);

    // The same answer again (a replayed challenge) is refused.
    const third = t.agent();
    await third.post('/api/auth/login', { identifier: user.username, password });
    expectError(
      await third.post('/api/auth/second-factor/passkey', { response: answer }),
      400,
      'PASSKEY_INVALID',
    );
  });

  it('refuses an answer for another site, and a registration signed for another origin', async () => {
    const { user, password, key, agent } = await registered('officer');
    const next = t.agent();
    await next.post('/api/auth/login', { identifier: user.username, password });
    const options = await next.post('/api/auth/second-factor/passkey/options');
    const forged = key.authenticate(options.body, { rpId: 'evil.example' });
    expectError(
      await next.post('/api/auth/second-factor/passkey', { response: forged }),
      400,
      'PASSKEY_INVALID',
    );

    const other = new SoftAuthenticator('localhost', ORIGIN);
    const regOptions = await agent.post('/api/account/security/passkeys/options');
    const response = other.register(regOptions.body, { origin: 'http://evil.example' });
    expectError(
      await agent.post('/api/account/security/passkeys', { name: 'Evil', response }),
      400,
      'PASSKEY_INVALID',
    );
  });

  it('removing a passkey is audited; another user cannot remove it', async () => {
    const { user, agent, key } = await registered('officer');
    const stranger = await staff('officer');
    expectError(
      await stranger.agent.request('DELETE', `/api/account/security/passkeys/${key.id}`),
      404,
      'NOT_FOUND',
    );
    expect((await agent.request('DELETE', `/api/account/security/passkeys/${key.id}`)).status).toBe(200);
    expect((await agent.get('/api/account/security')).body.passkeys).toEqual([]);
    expect(await auditOf(user.id, 'user.passkey_removed')).toHaveLength(1);
  });
});
