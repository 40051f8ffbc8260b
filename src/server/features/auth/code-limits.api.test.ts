import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneExpired } from '../../auth/sessions';
import type { Config } from '../../config';
import { expectError } from '../../test-support/api-assertions';
import { seedApplication } from '../../test-support/seed';
import { type ApiResponse, createTestApp, type TestApp } from '../../test-support/test-app';
import { ageVerificationCodes } from '../../test-support/verification-codes';
import { sendWithdrawalCode } from '../../test-support/withdrawal';

const LIMIT_MESSAGE = (n: number) =>
  `Too many verification codes have been requested. Please try again in ${n} minutes.`;

const opened: TestApp[] = [];
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
});

async function appWith(codeLimits: Config['codeLimits'], config: Partial<Config> = {}) {
  const t = await createTestApp({ config: { codeLimits, ...config } });
  opened.push(t);
  return t;
}

/** Asserts the ceiling's refusal: 429, the error shape and message, and a Retry-After within the hour. */
function expectLimited(response: ApiResponse) {
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter), `Retry-After: ${response.headers['retry-after']}`).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expectError(response, 429, 'CODE_LIMIT_REACHED', LIMIT_MESSAGE(Math.ceil(retryAfter / 60)));
}

const codesFor = (t: TestApp, phone: string) =>
  t.db.selectFrom('verification_codes').select('id').where('phone', '=', phone).execute();
const outboxFor = (t: TestApp, phone: string) => t.deps.notifier.outbox?.(phone) ?? [];

describe('ceilings on sending verification codes (kept in the database)', () => {
  it('refuses the 11th code from one address in an hour with 429 + Retry-After, and sends nothing', async () => {
    const t = await appWith({ perIpPerHour: 10, globalPerHour: 1000 });
    const client = t.agent();
    for (let i = 0; i < 10; i += 1) {
      const sent = await client.post('/api/auth/signup/code', { phone: t.nextPhone() });
      expect(sent.status, sent.text).toBe(200);
    }
    const phone = t.nextPhone();
    const refused = await client.post('/api/auth/signup/code', { phone });
    expectLimited(refused);
    expect(outboxFor(t, phone)).toEqual([]);
    expect(await codesFor(t, phone)).toEqual([]);

    // Another address is counted on its own.
    const other = t.nextPhone();
    expect((await t.agent().post('/api/auth/signup/code', { phone: other })).status).toBe(200);
    expect(outboxFor(t, other)).toHaveLength(1);
  });

  it('counts only codes that went out: a refusal by the per-phone rules takes no slot', async () => {
    const t = await appWith({ perIpPerHour: 2, globalPerHour: 1000 });
    const client = t.agent();
    const first = t.nextPhone();
    expect((await client.post('/api/auth/signup/code', { phone: first })).status).toBe(200);
    expectError(await client.post('/api/auth/signup/code', { phone: first }), 429, 'CODE_RESEND_TOO_SOON');
    expect((await client.post('/api/auth/signup/code', { phone: t.nextPhone() })).status).toBe(200);
    expectLimited(await client.post('/api/auth/signup/code', { phone: t.nextPhone() }));
  });

  it('holds the global ceiling across addresses', async () => {
    const t = await appWith({ perIpPerHour: 1000, globalPerHour: 3 });
    for (let i = 0; i < 3; i += 1) {
      expect((await t.agent().post('/api/auth/signup/code', { phone: t.nextPhone() })).status).toBe(200);
    }
    const phone = t.nextPhone();
    expectLimited(await t.agent().post('/api/auth/signup/code', { phone }));
    expect(outboxFor(t, phone)).toEqual([]);
  });

  it('behind a trusted proxy counts the forwarded address; IPv6 by its /64', async () => {
    const t = await appWith({ perIpPerHour: 1, globalPerHour: 1000 }, { trustProxy: 1 });
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    const send = (address: string) =>
      t.agent().post('/api/auth/signup/code', { phone: t.nextPhone() }, from(address));
    expect((await send('203.0.113.1')).status).toBe(200);
    expectLimited(await send('203.0.113.1'));
    expect((await send('203.0.113.2')).status).toBe(200);
    expect((await send('2001:db8::1')).status).toBe(200);
    expectLimited(await send('2001:db8:0:0:ffff::2'));
    expect((await send('2001:db8:0:1::1')).status).toBe(200);
  });

  it('counts withdrawal codes against the same per-address ceiling', async () => {
    const t = await appWith({ perIpPerHour: 2, globalPerHour: 1000 });
    const { user, phone, password } = await t.signUpBorrower();
    await seedApplication(t.db, { borrowerId: user.id, phone, status: 'approved' });
    const borrower = await t.loginAs(phone, password);
    expect((await sendWithdrawalCode(borrower, 1000)).status).toBe(200);
    expect((await borrower.post('/api/auth/signup/code', { phone: t.nextPhone() })).status).toBe(200);
    await ageVerificationCodes(t.db, phone);
    expectLimited(await sendWithdrawalCode(borrower, 1000));
    expect(outboxFor(t, phone)).toHaveLength(2); // the sign-up code and the first withdrawal code
  });

  it('lets exactly the ceiling through when 30 requests arrive at once', async () => {
    const t = await appWith({ perIpPerHour: 10, globalPerHour: 1000 });
    const client = t.agent();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => client.post('/api/auth/signup/code', { phone: t.nextPhone() })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    for (const answer of answers.filter((a) => a.status !== 200)) expectLimited(answer);
    const sent = await t.db
      .selectFrom('verification_codes')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(sent.n)).toBe(10);
  });

  it('the prune job drops past windows and keeps the current one', async () => {
    const t = await appWith({ perIpPerHour: 10, globalPerHour: 1000 });
    expect((await t.agent().post('/api/auth/signup/code', { phone: t.nextPhone() })).status).toBe(200);
    await t.db
      .insertInto('rate_limit_counters')
      .values({
        key: 'codes:global',
        window_start: sql`date_trunc('hour', now()) - interval '3 hours'`,
        count: 7,
      })
      .execute();
    await pruneExpired(t.db);
    const left = await t.db
      .selectFrom('rate_limit_counters')
      .select(['key', 'count'])
      .orderBy('key')
      .execute();
    expect(left).toEqual([
      { key: 'codes:global', count: 1 },
      { key: expect.stringMatching(/^codes:ip:/), count: 1 },
    ]);
  });
});
