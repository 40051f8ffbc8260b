import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codePolicy } from '../../domain/codes';
import { seedApplication } from '../test-support/seed';
import { type Agent, type ApiResponse, createTestApp, type TestApp } from '../test-support/test-app';
import { sendWithdrawalCode } from '../test-support/withdrawal';
import type { CredentialKind } from './attempt-limits';

/**
 * Issue #33: a limit of N failed attempts means at most N secrets are ever checked, however many attempts
 * arrive at the same instant. One pattern for every limit: fire BURST wrong attempts at once and count the
 * checks the server really made (`deps.credentialChecks`, what `/metrics` shows), not the answers; every
 * answer is the wrong-secret one or 429, never a 500; and afterwards even the right secret is refused.
 * Runs on PGlite and on PostgreSQL (where the requests really run side by side on the pool).
 */
const BURST = 200;
const POLICY = { afterFailures: 5, firstMinutes: 15, maxMinutes: 60, failuresPerIp: 10 };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      loginLockout: POLICY,
      staffSignIn: {
        secondFactorRequiredRoles: ['admin'],
        idleMinutes: 20,
        absoluteHours: 8,
        webauthnRpId: 'localhost',
        webauthnOrigin: 'http://localhost:3000',
      },
    },
  });
});
afterAll(() => t?.close());

interface Burst {
  checked: number;
  answers: ApiResponse[];
  /** How many answers said "wrong", and how many "too many attempts". */
  wrong: number;
  locked: number;
}

/** Fires BURST attempts at once; `wrongCode` is the answer a checked wrong secret gets. */
async function burst(
  kind: CredentialKind,
  wrongCode: string,
  attempt: (i: number) => Promise<ApiResponse>,
): Promise<Burst> {
  const before = t.deps.credentialChecks.count(kind);
  const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => attempt(i)));
  const checked = t.deps.credentialChecks.count(kind) - before;
  const codes = answers.map((a) => (a.status === 429 ? 'TOO_MANY_ATTEMPTS' : a.body?.error?.code));
  const unexpected = answers.filter((a, i) => a.status !== 429 && codes[i] !== wrongCode);
  expect(unexpected.map((a) => `${a.status} ${a.text}`)).toEqual([]);
  const wrong = codes.filter((c) => c === wrongCode).length;
  return { checked, answers, wrong, locked: BURST - wrong };
}

/** At least one check ran (the test cannot pass by checking nothing), and never more than the limit. */
function expectAtMost(result: Burst, limit: number) {
  expect(result.checked).toBeGreaterThanOrEqual(1);
  expect(result.checked).toBeLessThanOrEqual(limit);
  // Every secret checked was answered as wrong; every other attempt was refused before its check.
  expect(result.wrong).toBeLessThanOrEqual(result.checked);
  expect(result.locked).toBeGreaterThanOrEqual(BURST - limit);
}

describe('passwords', () => {
  it(`${BURST} wrong passwords at once for one account: at most ${POLICY.afterFailures} checked, then locked`, async () => {
    const { user, password } = await t.createUser({ role: 'admin' });
    const result = await burst('password', 'INVALID_CREDENTIALS', () =>
      t.agent().post('/api/auth/login', { identifier: user.username, password: 'wrong-password-1' }),
    );
    expectAtMost(result, POLICY.afterFailures);
    const right = await t.agent().post('/api/auth/login', { identifier: user.username, password });
    expect(right.status).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
  });

  it('an unknown identifier is limited alike (no hint that the account does not exist)', async () => {
    const result = await burst('password', 'INVALID_CREDENTIALS', () =>
      t.agent().post('/api/auth/login', { identifier: `nobody-${randomUUID()}`.slice(0, 30), password: 'x' }),
    );
    // Each of these names its own unknown identifier, so only the addresses limit them: one address each.
    expect(result.checked).toBe(BURST);
    const sameName = `nobody-${randomUUID()}`.slice(0, 30);
    const named = await burst('password', 'INVALID_CREDENTIALS', () =>
      t.agent().post('/api/auth/login', { identifier: sameName, password: 'x' }),
    );
    expectAtMost(named, POLICY.afterFailures);
  });

  it(`${BURST} wrong passwords at once from one address, each for another account: at most ${POLICY.failuresPerIp} checked`, async () => {
    const from = t.agent();
    const names = Array.from({ length: BURST }, (_, i) => `burst-${i}-${randomUUID()}`.slice(0, 30));
    const result = await burst('password', 'INVALID_CREDENTIALS', (i) =>
      from.clone().post('/api/auth/login', { identifier: names[i], password: 'wrong-password-2' }),
    );
    expectAtMost(result, POLICY.failuresPerIp);
  });

  it('a signed-in session guessing its own password (change it, close the account) shares the account limit', async () => {
    const borrower = await t.signUpBorrower();
    const agent = await t.loginAs(borrower.phone, borrower.password);
    const result = await burst('password', 'CURRENT_PASSWORD_WRONG', (i) =>
      i % 2
        ? agent.post('/api/auth/password', {
            currentPassword: `wrong-${i}-password`,
            newPassword: 'a new and long passphrase 91',
            confirmPassword: 'a new and long passphrase 91',
          })
        : agent.post('/api/account/close', { password: `wrong-${i}-password` }),
    );
    expectAtMost(result, POLICY.afterFailures);
    const right = await t.agent().post('/api/auth/login', {
      identifier: borrower.phone,
      password: borrower.password,
    });
    expect(right.status).toBe(429);
  });
});

/** An admin with an authenticator app, signed in with the password and waiting for the second factor. */
async function waitingForSecondFactor() {
  const { user, password } = await t.createUser({ role: 'admin' });
  const agent = await t.loginAs(user.username!, password);
  const setup = await agent.post('/api/account/security/totp/setup');
  const totp = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 });
  const confirmed = await agent.post('/api/account/security/totp/confirm', { code: totp.generate() });
  expect(confirmed.status, confirmed.text).toBe(200);
  // The code of the confirming step cannot be used again: sign in at the next step.
  await sql`update user_totp set last_used_step = null where user_id = ${user.id}`.execute(t.db);
  const waiting = t.agent();
  const login = await waiting.post('/api/auth/login', { identifier: user.username, password });
  expect(login.body.secondFactor?.status).toBe('pending');
  return { waiting, totp, recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

describe('the second factor', () => {
  it(`${BURST} wrong authenticator codes at once: at most 5 checked, then even the right code waits`, async () => {
    const { waiting, totp } = await waitingForSecondFactor();
    const right = totp.generate();
    const wrongCode = (i: number) => {
      const code = String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');
      return code === right ? '000000' : code;
    };
    const result = await burst('second_factor', 'SECOND_FACTOR_INVALID', (i) =>
      waiting.post('/api/auth/second-factor', { code: wrongCode(i) }),
    );
    expectAtMost(result, 5);
    expect((await waiting.post('/api/auth/second-factor', { code: right })).status).toBe(429);
  });

  it(`${BURST} wrong recovery codes at once: at most 5 checked, and a right one is not spent meanwhile`, async () => {
    const { waiting, recoveryCodes } = await waitingForSecondFactor();
    const result = await burst('second_factor', 'SECOND_FACTOR_INVALID', (i) =>
      waiting.post('/api/auth/second-factor', { code: `wrong-${i}-recovery` }),
    );
    expectAtMost(result, 5);
    expect((await waiting.post('/api/auth/second-factor', { code: recoveryCodes[0] })).status).toBe(429);
    const unused = await t.db
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('used_at', 'is', null)
      .where('code_hash', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(Number(unused.n)).toBeGreaterThan(0);
  });
});

/** Sixdigit codes that are all wrong: `right` is never among them. */
const wrongCodes = (right: string) =>
  Array.from({ length: BURST }, (_, i) => {
    const code = String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');
    return code === right ? '999999' : code;
  });

describe('codes sent by SMS: their tries are counted on the code itself', () => {
  it(`sign-up: ${BURST} wrong codes at once, at most ${codePolicy.maxAttempts} compared, then the right one is dead`, async () => {
    const phone = t.nextPhone();
    expect((await t.agent().post('/api/auth/signup/code', { phone })).status).toBe(200);
    const right = await t.latestCode(phone);
    const codes = wrongCodes(right);
    const body = (code: string) => ({
      phone,
      password: 'a long and unusual passphrase 7',
      confirmPassword: 'a long and unusual passphrase 7',
      code,
      privacyNoticeVersion: t.deps.config.privacy.noticeVersion,
    });
    const before = t.deps.credentialChecks.count('code');
    const answers = await Promise.all(codes.map((code) => t.agent().post('/api/auth/signup', body(code))));
    expect(answers.every((a) => a.body.error?.code === 'CODE_INVALID')).toBe(true);
    const checked = t.deps.credentialChecks.count('code') - before;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(codePolicy.maxAttempts);
    expect((await t.agent().post('/api/auth/signup', body(right))).body.error?.code).toBe('CODE_INVALID');
  });

  it(`password reset: ${BURST} wrong codes at once, at most ${codePolicy.maxAttempts} compared`, async () => {
    const borrower = await t.signUpBorrower();
    expect((await t.agent().post('/api/auth/password-reset/code', { phone: borrower.phone })).status).toBe(
      200,
    );
    const codes = wrongCodes(await t.latestCode(borrower.phone));
    const result = await burst('code', 'CODE_INVALID', (i) =>
      t.agent().post('/api/auth/password-reset', {
        phone: borrower.phone,
        code: codes[i],
        password: 'another long passphrase 55',
        confirmPassword: 'another long passphrase 55',
      }),
    );
    expect(result.locked).toBe(0);
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(result.checked).toBeLessThanOrEqual(codePolicy.maxAttempts);
  });

  it(`withdrawal: ${BURST} wrong codes at once, at most ${codePolicy.maxAttempts} compared, no payout`, async () => {
    const { user, phone, password } = await t.signUpBorrower();
    const loanId = await seedApplication(t.db, { borrowerId: user.id, phone, status: 'approved' });
    const agent = await t.loginAs(phone, password);
    expect((await sendWithdrawalCode(agent, 5_000)).status).toBe(200);
    const codes = wrongCodes(await t.latestCode(phone));
    const result = await burst('code', 'WITHDRAWAL_CODE_INVALID', (i) =>
      agent.post('/api/wallet/withdrawals', { amount: 5_000, code: codes[i], idempotencyKey: randomUUID() }),
    );
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(result.checked).toBeLessThanOrEqual(codePolicy.maxAttempts);
    const payouts = await t.db
      .selectFrom('disbursements')
      .select('id')
      .where('application_id', '=', loanId)
      .execute();
    expect(payouts).toEqual([]);
  });

  it(`new terms: ${BURST} wrong acceptance codes at once, at most ${codePolicy.maxAttempts} compared`, async () => {
    const officer = await t.signInStaff('officer');
    const { user, phone, password } = await t.signUpBorrower();
    const id = await seedApplication(t.db, {
      borrowerId: user.id,
      phone,
      status: 'pending',
      amountMinor: 8_000_000,
      termMonths: 12,
    });
    // The amount the borrower signed for (seeded rows carry an empty statement): a raise waits for them.
    await t.db
      .updateTable('applications')
      .set({ disclosure: JSON.stringify({ amountMinor: 8_000_000, termMonths: 12 }) })
      .where('id', '=', id)
      .execute();
    const proposed = await officer.post(`/api/staff/applications/pending/${id}/terms`, {
      amount: 90_000,
      termMonths: 12,
      reason: 'Income verified',
    });
    expect(proposed.status, proposed.text).toBe(200);
    const agent: Agent = await t.loginAs(phone, password);
    const change = (await agent.get('/api/wallet/terms')).body.proposed;
    expect((await agent.post(`/api/wallet/terms-changes/${change.id}/code`)).status).toBe(200);
    const codes = wrongCodes(await t.latestCode(phone));
    const result = await burst('code', 'CODE_INVALID', (i) =>
      agent.post(`/api/wallet/terms-changes/${change.id}/accept`, { code: codes[i] }),
    );
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(result.checked).toBeLessThanOrEqual(codePolicy.maxAttempts);
  });
});
