import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expectError } from '../test-support/api-assertions';
import { seedApplication } from '../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../test-support/test-app';

/**
 * Input the database cannot take gets a 4xx with the usual error shape, never a 5xx (issue #15): NUL and
 * lone surrogates are refused by the domain's one text rule (`text()` in every schema, and the validator's
 * net for any schema without it), PostgreSQL's own "bad data" errors map to 400, and URLs the router cannot
 * read are "not found".
 */
let t: TestApp;
let officer: Agent;
let admin: Agent;
let loanId: string;

beforeAll(async () => {
  t = await createTestApp({
    routes: (app, deps) => {
      // A schema without `text()`: the validator's net still refuses NUL and lone surrogates.
      app.post(
        '/api/test/plain-string',
        {
          schema: { body: z.object({ note: z.string(), tags: z.record(z.string(), z.string()).optional() }) },
        },
        async (request) => ({ ok: true, note: (request as { body: { note: string } }).body.note }),
      );
      // Input the schemas let through but PostgreSQL refuses: the error handler's net answers 400.
      app.get('/api/test/db-date', async (request) => {
        const { value } = request.query as { value: string };
        await sql`select ${value}::date`.execute(deps.db);
        return { ok: true };
      });
      app.get('/api/test/db-text', async (request) => {
        const { value } = request.query as { value: string };
        await sql`select ${`${value}\u0000`}::text`.execute(deps.db);
        return { ok: true };
      });
      app.get('/api/test/db-jsonb', async () => {
        await sql`select ${JSON.stringify({ a: '\ud800' }).replace('\ud800', '\\ud800')}::jsonb`.execute(
          deps.db,
        );
        return { ok: true };
      });
    },
  });
  officer = await t.signInStaff('officer');
  admin = await t.signInStaff('admin');
  const b = await t.signUpBorrower();
  loanId = await seedApplication(t.db, { borrowerId: b.user.id, phone: b.phone, status: 'approved' });
});
afterAll(() => t.close());

const TEXT_INVALID =
  'This text contains characters that cannot be saved (such as a null character). Please retype it.';

describe('NUL and lone surrogates are refused at the schema', () => {
  it('a NUL in the login identifier, signed out: 400 on the field, not 500', async () => {
    for (const identifier of ['ana\u0000', '\u0000', 'x\ud800y']) {
      const response = await t.agent().post('/api/auth/login', { identifier, password: 'whatever-1' });
      expectError(response, 400, 'TEXT_INVALID_CHARACTERS', TEXT_INVALID);
      expect(response.body.error.fields.identifier.code).toBe('TEXT_INVALID_CHARACTERS');
    }
  });

  it('lone surrogates in text written to jsonb (audit changes, borrower events) are refused', async () => {
    const hold = await officer.post(`/api/staff/loans/${loanId}/status`, {
      action: 'hold',
      message: 'Please call \ud83d us',
      reason: 'checking',
    });
    expectError(hold, 400, 'TEXT_INVALID_CHARACTERS');
    expect(hold.body.error.fields.message.code).toBe('TEXT_INVALID_CHARACTERS');
    const message = await officer.post(`/api/staff/loans/${loanId}/message`, {
      message: 'Hello',
      reason: 'x\udc00',
    });
    expectError(message, 400, 'TEXT_INVALID_CHARACTERS');
    expect(message.body.error.fields.reason.code).toBe('TEXT_INVALID_CHARACTERS');
    // A whole surrogate pair (an emoji) is fine.
    const emoji = await officer.post(`/api/staff/loans/${loanId}/message`, {
      message: 'Hello 👋',
      reason: 'ok',
    });
    expect(emoji.status, emoji.text).toBe(200);
  });

  it('query strings go through the same rule', async () => {
    for (const url of [
      '/api/staff/applications/pending?name=%00',
      '/api/staff/loans?name=a%00b',
      '/api/admin/audit?actor=%00',
    ]) {
      const response = await admin.get(url);
      expectError(response, 400, 'TEXT_INVALID_CHARACTERS');
    }
  });

  it('a route whose schema forgot text() is still covered by the validator', async () => {
    expectError(
      await t.api.post('/api/test/plain-string', { note: 'a\u0000' }),
      400,
      'TEXT_INVALID_CHARACTERS',
    );
    const key = await t.api.post('/api/test/plain-string', { note: 'ok', tags: { 'k\ud800': 'v' } });
    expectError(key, 400, 'TEXT_INVALID_CHARACTERS');
    expect(key.body.error.fields).toHaveProperty(['tags.k\ud800']);
    expect((await t.api.post('/api/test/plain-string', { note: 'fine' })).status).toBe(200);
  });
});

describe('JSON bodies nested too deeply (issue #33)', () => {
  const deep = (depth: number) => `{"note":"x","tags":${'{"a":'.repeat(depth)}"v"${'}'.repeat(depth)}}`;

  it('are refused with a clear 400 before any schema or text check walks them, on every route', async () => {
    // 100,000 levels is what fits in the 1 MiB body limit.
    for (const depth of [40, 5_000, 100_000]) {
      expectError(
        await t.api.request('POST', '/api/test/plain-string', {
          raw: deep(depth),
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'JSON_TOO_DEEP',
      );
      expectError(
        await t.agent().request('POST', '/api/auth/login', {
          raw: `{"identifier":"a","password":${'['.repeat(depth)}${']'.repeat(depth)}}`,
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'JSON_TOO_DEEP',
      );
    }
  });

  it("keep Fastify's own JSON rules: bad JSON and __proto__ keys are still refused", async () => {
    const post = (raw: string) =>
      t.api.request('POST', '/api/test/plain-string', {
        raw,
        headers: { 'content-type': 'application/json' },
      });
    expect((await post('{"note": "x"')).status).toBe(400);
    expect((await post('{"note":"x","__proto__":{"polluted":true}}')).status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await post('{"note":"x","tags":{"a":"b"}}')).status).toBe(200);
  });
});

describe('API answers are never kept by a browser or a proxy (issue #33)', () => {
  it('Cache-Control: no-store on answers, refusals and unknown API paths alike', async () => {
    for (const response of [
      await officer.get('/api/staff/applications/pending'),
      await officer.get('/api/me'),
      await t.agent().get('/api/staff/applications/pending'),
      await t.agent().get('/api/settings'),
      await t.agent().get('/api/nothing-here'),
      await t.agent().post('/api/auth/login', { identifier: '', password: '' }),
    ]) {
      expect(response.headers['cache-control'], response.text.slice(0, 80)).toBe('no-store');
    }
  });
});

describe("PostgreSQL's bad-data errors are 400, not 500", () => {
  it.each([
    ['/api/test/db-date?value=0000-01-01', 'datetime field overflow'],
    ['/api/test/db-date?value=not-a-date', 'invalid datetime format'],
    ['/api/test/db-text?value=a', 'NUL in text'],
    ['/api/test/db-jsonb', 'lone surrogate in jsonb'],
  ])('%s (%s)', async (url) => {
    expectError(await t.api.get(url), 400, 'VALIDATION_FAILED');
  });
});

describe('URLs the router cannot read', () => {
  it('bad percent-encoding and over-long path parameters are "not found" in the usual shape', async () => {
    for (const url of [
      '/api/files/%ed%a0%80',
      `/api/files/${'x'.repeat(500)}`,
      '/api/staff/loans/%E0%A4%A/ledger',
    ]) {
      expectError(await officer.get(url), 404, 'NOT_FOUND');
    }
  });
});
