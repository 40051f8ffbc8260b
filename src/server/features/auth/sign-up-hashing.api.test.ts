import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Passwords from '../../auth/passwords';
import { expectError } from '../../test-support/api-assertions';
import type * as TestApps from '../../test-support/test-app';

// The real hashing, counted: sign-up must not spend an argon2 hash on a request whose code is wrong. API
// test files share a worker's modules (vitest.config.ts), so the server is imported afresh once the
// password module is replaced, and put back for the files after this one.
const hashPassword = vi.fn<typeof Passwords.hashPassword>();

const PASSWORD = 'correct-horse-9';

describe('sign-up checks the code before hashing the password', () => {
  let t: TestApps.TestApp;
  let testConsent: typeof TestApps.testConsent;
  beforeAll(async () => {
    vi.resetModules();
    vi.doMock('../../auth/passwords', async (importOriginal) => {
      const real = await importOriginal<typeof Passwords>();
      hashPassword.mockImplementation(real.hashPassword);
      return { ...real, hashPassword };
    });
    const testApps = await import('../../test-support/test-app');
    testConsent = testApps.testConsent;
    t = await testApps.createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    vi.doUnmock('../../auth/passwords');
    vi.resetModules();
  });

  it('hashes nothing for a wrong code or a phone without one, and once for the right code', async () => {
    const phone = t.nextPhone();
    expect((await t.api.post('/api/auth/signup/code', { phone })).status).toBe(200);
    const code = await t.latestCode(phone);
    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    const body = (p: string, c: string) => ({
      phone: p,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      code: c,
      ...testConsent(t.deps),
    });
    hashPassword.mockClear();

    expectError(await t.agent().post('/api/auth/signup', body(phone, wrong)), 400, 'CODE_INVALID');
    expectError(await t.agent().post('/api/auth/signup', body(t.nextPhone(), code)), 400, 'CODE_INVALID');
    expect(hashPassword).not.toHaveBeenCalled();
    // The wrong try still counts against the code.
    const row = await t.db
      .selectFrom('verification_codes')
      .select(['attempts', 'used_at'])
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 1, used_at: null });

    expect((await t.agent().post('/api/auth/signup', body(phone, code))).status).toBe(201);
    expect(hashPassword).toHaveBeenCalledTimes(1);
  });
});
