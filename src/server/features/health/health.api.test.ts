import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { Database } from '../../db/schema';
import { freePort } from '../../test-support/free-port';
import { createTestApp, type TestApp, testConfig, testDbKind } from '../../test-support/test-app';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers ok and names the backend the suite runs on', async () => {
    const response = await t.api.get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', db: testDbKind() });
    expect(t.kind).toBe(testDbKind());
  });

  it('carries the security headers (computed once at start), on a 404 too', async () => {
    for (const path of ['/api/health', '/api/no-such-route']) {
      const { headers } = await t.api.get(path);
      expect(headers['content-security-policy']).toContain("default-src 'self'");
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('needs no session and sets no cookie', async () => {
    const response = await t.agent().get('/api/health');
    expect(response.status).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect((await t.agent().get('/api/health/ready')).headers['set-cookie']).toBeUndefined();
  });

  it('readiness: ready once the database answers and holds every migration', async () => {
    const response = await t.api.get('/api/health/ready');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready', db: testDbKind() });
  });

  it('readiness: 503 NOT_READY while a migration is pending; liveness still ok', async () => {
    const last = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from kysely_migration order by name desc limit 1`.execute(t.db);
    const row = last.rows[0]!;
    await sql`delete from kysely_migration where name = ${row.name}`.execute(t.db);
    try {
      const response = await t.api.get('/api/health/ready');
      expect(response.status).toBe(503);
      expect(response.body.error).toMatchObject({
        code: 'NOT_READY',
        message: 'The server is not ready to take requests yet.',
        params: { database: 'ok', pendingMigrations: 1 },
      });
      expect((await t.api.get('/api/health')).status).toBe(200);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(
        t.db,
      );
    }
    expect((await t.api.get('/api/health/ready')).status).toBe(200);
  });
});

describe('readiness without a database', () => {
  it('is 503 NOT_READY (database unreachable) while liveness stays ok', async () => {
    // A PostgreSQL URL where nothing listens: every query fails to connect.
    const url = `postgres://hiram@127.0.0.1:${await freePort()}/hiram`;
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    const app = await buildApp({ config: testConfig(), db, dbKind: 'postgres', logger: false });
    try {
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().error).toMatchObject({ code: 'NOT_READY', params: { database: 'unreachable' } });
      const live = await app.inject({ method: 'GET', url: '/api/health' });
      expect(live.statusCode).toBe(200);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});
