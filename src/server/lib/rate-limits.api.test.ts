import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../test-support/api-assertions';
import { Agent, type ApiResponse, createTestApp, type TestApp } from '../test-support/test-app';
import { UseCounter } from './rate-limits';

/**
 * The general per-hour ceilings (issue #15), kept in rate_limit_counters: login per client address,
 * uploads (application submit, avatar) and withdrawals per address and per account. Every attempt counts,
 * whatever its outcome; the refusal is 429 RATE_LIMITED with Retry-After, before the body is read.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      rateLimits: {
        login: { perIpPerHour: 3 },
        uploads: { perIpPerHour: 5, perAccountPerHour: 2 },
        withdrawals: { perIpPerHour: 100, perAccountPerHour: 2 },
      },
    },
  });
});
afterAll(() => t?.close());

function expectLimited(response: ApiResponse) {
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter), `Retry-After: ${response.headers['retry-after']}`).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expectError(response, 429, 'RATE_LIMITED', 'Too many requests. Please slow down.');
}

async function borrowerOn(agent: Agent) {
  const b = await t.signUpBorrower();
  return t.loginAs(b.phone, b.password, agent);
}

describe('general rate limits', () => {
  it('login: the 4th attempt in an hour from one address is refused, right password or not; other addresses go on', async () => {
    const { user, password } = await t.createUser({ role: 'borrower' });
    const client = t.agent();
    expect(
      (await client.post('/api/auth/login', { identifier: user.phone, password: 'wrong-one' })).status,
    ).toBe(401);
    expect(
      (await client.post('/api/auth/login', { identifier: 'nobody', password: 'wrong-one' })).status,
    ).toBe(401);
    expect((await client.post('/api/auth/login', { identifier: user.phone, password })).status).toBe(200);
    expectLimited(await client.post('/api/auth/login', { identifier: user.phone, password }));
    expectLimited(await client.post('/api/auth/login', {}));
    expect((await t.agent().post('/api/auth/login', { identifier: user.phone, password })).status).toBe(200);
  });

  it('uploads: per account (avatar and application together), then per address', async () => {
    const ip = '10.250.0.1';
    const first = await borrowerOn(new Agent(t.app, ip));
    expect((await first.post('/api/account/avatar', { avatar: 2 })).status).toBe(200);
    // A refused upload counts too (here: not multipart).
    expect((await first.post('/api/applications', { amount: 10000 })).status).toBe(400);
    expectLimited(await first.post('/api/account/avatar', { avatar: 3 }));
    expectLimited(
      await first.request('POST', '/api/applications', {
        raw: 'x',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
    );

    // Refused attempts count on the address too (4 of 5 taken): another account there gets the last slot.
    const second = await borrowerOn(new Agent(t.app, ip));
    expect((await second.post('/api/account/avatar', { avatar: 4 })).status).toBe(200);
    expectLimited(await second.post('/api/account/avatar', { avatar: 5 }));
    const elsewhere = await borrowerOn(t.agent());
    expect((await elsewhere.post('/api/account/avatar', { avatar: 4 })).status).toBe(200);
  });

  it('withdrawals: per account, whatever the outcome', async () => {
    const borrower = await borrowerOn(t.agent());
    for (let i = 0; i < 2; i++) expect((await borrower.post('/api/wallet/withdrawals', {})).status).toBe(400);
    expectLimited(await borrower.post('/api/wallet/withdrawals', {}));
    const other = await borrowerOn(t.agent());
    expect((await other.post('/api/wallet/withdrawals', {})).status).toBe(400);
  });

  it('a signed-out caller is told to sign in, not limited (the guard runs first)', async () => {
    for (let i = 0; i < 5; i++) expect((await t.api.post('/api/wallet/withdrawals', {})).status).toBe(401);
  });

  it('withdrawals at once from one account: exactly the ceiling gets through and every attempt is counted', async () => {
    const b = await t.signUpBorrower();
    const borrower = await t.loginAs(b.phone, b.password, t.agent());
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => borrower.post('/api/wallet/withdrawals', {})),
    );
    // Two reach the withdrawal (and are refused for the empty body); the other ten are limited.
    expect(answers.filter((a) => a.status === 400)).toHaveLength(2);
    for (const limited of answers.filter((a) => a.status !== 400)) expectLimited(limited);
    const counters = await t.db
      .selectFrom('rate_limit_counters')
      .select('count')
      .where('key', '=', `rl:withdrawals:user:${b.user.id}`)
      .execute();
    expect(counters.map((c) => c.count)).toEqual([12]);
  });
});

describe('UseCounter', () => {
  it('gives each of many uses of a key at once its own place, and adds them up in a few statements', async () => {
    let statements = 0;
    const counted = t.db.withPlugin({
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const uses = new UseCounter(counted);
    const key = `test:${randomUUID()}`;
    const places = await Promise.all(Array.from({ length: 50 }, () => uses.take(key)));
    expect(places.map((p) => p.nth).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    for (const p of places) expect(p.secondsLeft).toBeGreaterThan(0);
    // The first is written alone, the 49 that arrived meanwhile together.
    expect(statements).toBe(2);
    expect(uses.size).toBe(0);
    const row = await t.db
      .selectFrom('rate_limit_counters')
      .select('count')
      .where('key', '=', key)
      .executeTakeFirst();
    expect(row?.count).toBe(50);
    // A later use goes on counting from there.
    expect((await uses.take(key)).nth).toBe(51);
  });

  it('passes a failed write to the uses it carried, and writes the next ones', async () => {
    let fail = true;
    const flaky = t.db.withPlugin({
      transformQuery: (args) => {
        if (fail) throw new Error('database down');
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const uses = new UseCounter(flaky);
    const key = `test:${randomUUID()}`;
    await expect(uses.take(key)).rejects.toThrow('database down');
    fail = false;
    expect((await uses.take(key)).nth).toBe(1);
    expect(uses.size).toBe(0);
  });
});
