import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors';
import { requireUser } from '../auth/plugin';
import { expectError, expectErrorShape } from '../test-support/api-assertions';
import { createTestApp, type TestApp, testConsent } from '../test-support/test-app';

const SECRET_DETAIL =
  'connect ECONNREFUSED 10.9.8.7:5432 password=hunter2 at /srv/hiram/src/server/db/open.ts';
const GENERIC_500 = { error: { code: 'INTERNAL', message: 'Something went wrong. Try again.', fields: {} } };

describe('API errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      routes: (app) => {
        app.get('/api/test/boom', async () => {
          throw new Error(SECRET_DETAIL);
        });
        app.get('/api/test/boom-object', async () => {
          // Not even an Error: a thrown plain object with a tempting message.
          throw { message: SECRET_DETAIL, statusCode: 503 };
        });
        app.get('/api/test/app-error', async () => {
          throw new AppError('PHONE_INVALID', { fields: { phone: 'PHONE_INVALID' } });
        });
        app.get('/api/test/guarded', { preValidation: requireUser() }, async () => ({ ok: true }));
      },
    });
  });
  afterAll(() => t?.close());

  it('an unknown /api route is a 404 in the error shape, for any method', async () => {
    for (const [method, url] of [
      ['GET', '/api/does-not-exist'],
      ['POST', '/api/does-not-exist'],
      ['DELETE', '/api/auth/login'],
      ['GET', '/api'],
      ['GET', '/api/'],
    ] as const) {
      const response = await t.api.request(method, url);
      expectError(response, 404, 'NOT_FOUND', 'Not found.');
      expect(response.body.error.fields).toEqual({});
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('a thrown non-AppError is a 500 with the generic message and no internals', async () => {
    const response = await t.api.get('/api/test/boom');
    expect(response.status).toBe(500);
    expect(response.body).toEqual(GENERIC_500);
    expect(response.text).not.toMatch(/hunter2|ECONNREFUSED|open\.ts|stack/);
  });

  it('a thrown non-Error object with a 5xx status is also generic', async () => {
    const response = await t.api.get('/api/test/boom-object');
    expect(response.status).toBe(500);
    expect(response.body).toEqual(GENERIC_500);
  });

  it('an AppError carries its code, message and field messages', async () => {
    const response = await t.api.get('/api/test/app-error');
    expectError(
      response,
      400,
      'PHONE_INVALID',
      'Phone number must be at least 10 digits and contain only numbers',
    );
    expect(response.body.error.fields).toEqual({
      phone: {
        code: 'PHONE_INVALID',
        message: 'Phone number must be at least 10 digits and contain only numbers',
      },
    });
  });

  it('a guarded route without a session is 401 UNAUTHENTICATED', async () => {
    expectError(await t.api.get('/api/test/guarded'), 401, 'UNAUTHENTICATED');
  });

  it('errors of the framework (bad JSON, wrong media type, too large) keep the shape', async () => {
    const badJson = await t.api.post('/api/auth/login', undefined, {
      raw: '{"identifier":',
      headers: { 'content-type': 'application/json' },
    });
    expectError(badJson, 400, 'LOGIN_FIELDS_REQUIRED', 'Please enter phone or username and password');

    const wrongType = await t.api.post('/api/auth/login', undefined, {
      raw: 'identifier=a&password=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(wrongType, 400, 'LOGIN_FIELDS_REQUIRED');

    const tooLarge = await t.api.post('/api/auth/login', {
      identifier: 'x',
      password: 'y'.repeat(1024 * 1024),
    });
    expectError(tooLarge, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a broken database gives the route failure message (SPEC §5) without leaking the SQL error', async () => {
    const broken = await createTestApp();
    try {
      await sql`drop table login_throttle`.execute(broken.db);
      await sql`drop table verification_codes`.execute(broken.db);

      const login = await broken.api.post('/api/auth/login', {
        identifier: 'someone',
        password: 'whatever1',
      });
      expect(login.status).toBe(500);
      expect(login.body).toEqual({
        error: { code: 'LOGIN_FAILED', message: 'Login failed. Please try again.', fields: {} },
      });
      expect(login.text).not.toContain('login_throttle');

      const signup = await broken.api.post('/api/auth/signup', {
        phone: '09170000001',
        password: 'password-1',
        confirmPassword: 'password-1',
        code: '123456',
        ...testConsent(broken.deps),
      });
      expect(signup.status).toBe(500);
      expect(signup.body).toEqual({
        error: { code: 'SIGNUP_FAILED', message: 'Failed to register. Try again.', fields: {} },
      });
      expect(signup.text).not.toContain('verification_codes');

      const sendCode = await broken.api.post('/api/auth/signup/code', { phone: '09170000001' });
      expect(sendCode.status).toBe(500);
      expectErrorShape(sendCode.body);
      expect(sendCode.text).not.toContain('verification_codes');

      // With the database gone altogether, readiness says so in the error shape, leaking nothing; liveness
      // does not depend on the database (a database outage must not restart every instance).
      await broken.db.destroy();
      const ready = await broken.api.get('/api/health/ready');
      expect(ready.status).toBe(503);
      expectErrorShape(ready.body);
      expect(ready.body.error.code).toBe('NOT_READY');
      expect(ready.text).not.toMatch(/pool|destroy|sql/i);
      expect((await broken.api.get('/api/health')).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});
