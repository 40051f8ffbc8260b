import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema';
import { expectError } from '../../test-support/api-assertions';
import { type Agent, createTestApp, silentLogger, type TestApp } from '../../test-support/test-app';

/**
 * Audit log filters the database would refuse, and the CSV export failing (issue #15): dates are checked
 * by the schema (years 1900–9999), the export reads its first rows before the first byte, and a failure
 * after that cuts the download off (no last chunk) and is logged — never a 200 that looks complete.
 */
let t: TestApp;
let admin: Agent;
const logged: { msg: string; obj: unknown }[] = [];
const capture: FastifyBaseLogger = {
  ...silentLogger,
  error: (obj: unknown, msg?: string) => {
    logged.push({ obj, msg: msg ?? '' });
  },
  child: () => capture,
};

beforeAll(async () => {
  t = await createTestApp({
    routes: (app) => {
      app.addHook('onRequest', async (request) => {
        request.log = capture;
      });
    },
  });
  admin = await t.signInStaff('admin');
  // More than one batch of the export (500 rows).
  await sql`
    insert into audit_events (actor_role, action, target_type, target_id, reason)
    select 'admin', 'test.bulk', 'user', g::text, 'bulk ' || g from generate_series(1, 1200) g
  `.execute(t.db);
});
afterAll(() => t.close());

describe('date filters', () => {
  it.each([
    'from=0000-01-01',
    'to=0000-12-31',
    'from=1899-12-31',
    'to=10000-01-01',
    'from=2026-02-30',
    'from=-001-01-01',
    'to=2026-1-1',
  ])('%s is refused with 400 by the list and the export', async (query) => {
    for (const path of ['/api/admin/audit', '/api/admin/audit.csv']) {
      const response = await admin.get(`${path}?${query}`);
      expectError(response, 400, 'DATE_INVALID', 'Enter a real date between the years 1900 and 9999.');
    }
  });

  it('the edges of the range are accepted', async () => {
    const response = await admin.get('/api/admin/audit?from=1900-01-01&to=9999-12-31');
    expect(response.status, response.text).toBe(200);
    // More than 1,000 events: the list counts to 1,000 and says there are more (docs/decisions/022).
    expect(response.body).toMatchObject({ total: 1000, totalCapped: true });
    const csv = await admin.get('/api/admin/audit.csv?from=1900-01-01&to=9999-12-31');
    expect(csv.status).toBe(200);
  });
});

/** Makes every select from audit_events after the first `okSelects` fail, as a database going away would. */
function failingAfter(db: Kysely<Database>, okSelects: number): Kysely<Database> {
  let seen = 0;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node).includes('"audit_events"')) {
        seen += 1;
        if (seen > okSelects) throw new Error('connection to the database lost (test)');
      }
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  return db.withPlugin(plugin);
}

async function withDb<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  const original = t.deps.db;
  t.deps.db = db;
  try {
    return await work();
  } finally {
    t.deps.db = original;
  }
}

describe('the CSV export across batches', () => {
  it('exports every row when a batch boundary falls among rows written in one transaction (same time)', async () => {
    const csv = await admin.get('/api/admin/audit.csv?action=test.bulk');
    expect(csv.status).toBe(200);
    const rows = csv.text.split('\r\n').filter((line) => line.includes(',test.bulk,'));
    expect(rows).toHaveLength(1200);
  });
});

describe('the CSV export when the database fails', () => {
  it('before the first byte: the usual error answer, not a 200', async () => {
    const response = await withDb(failingAfter(t.db, 0), () => admin.get('/api/admin/audit.csv'));
    expectError(response, 500, 'INTERNAL');
    expect(response.headers['content-disposition']).toBeUndefined();
  });

  it('mid-export: the response is cut off without its last chunk, and the failure is logged', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    expect(address).toContain(String(port));
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    logged.length = 0;

    await withDb(failingAfter(t.db, 1), async () => {
      const response = await fetch(`http://127.0.0.1:${port}/api/admin/audit.csv`, { headers: { cookie } });
      // The status was sent with the first rows; the body must not end cleanly.
      expect(response.status).toBe(200);
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      await expect(response.text()).rejects.toThrow();
    });
    expect(logged.map((l) => l.msg)).toContain('audit CSV export failed mid-stream; the download is cut off');
    expect(logged.find((l) => l.msg.startsWith('audit CSV'))?.obj).toMatchObject({ rowsSent: 500 });

    // Without a failure the same export completes (1,200+ rows and the header).
    const whole = await fetch(`http://127.0.0.1:${port}/api/admin/audit.csv`, { headers: { cookie } });
    const text = await whole.text();
    expect(text.split('\r\n').filter(Boolean).length).toBeGreaterThan(1200);
  });
});
