import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../auth/passwords';
import { expectError } from '../../test-support/api-assertions';
import { createTestApp, type TestApp, testConsent } from '../../test-support/test-app';

// The real hashing, counted: sign-up must not spend an argon2 hash on a request whose code is wrong.
vi.mock('../../auth/passwords', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../auth/passwords')>();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});

const PASSWORD = 'correct-horse-9';

describe('sign-up checks the code before hashing the password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

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
    vi.mocked(hashPassword).mockClear();

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
