import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAll } from '../../../bench/seed';
import { type Agent, createTestApp, type TestApp } from '../test-support/test-app';
import { NameSearchRoute } from './name-search-route';

/**
 * A name search goes by the distinct names where names repeat, else by the queue's own trigram indexes
 * (docs/decisions/065, 066). Both ways must find the same rows in the same order on every searched list.
 */
let t: TestApp;
let admin: Agent;
let beforeSeeding: boolean;

beforeAll(async () => {
  t = await createTestApp();
  beforeSeeding = await new NameSearchRoute(t.db).byNames();
  // The bench's seed: 2,000 applications over 400 names (20 first × 20 last), paid-out loans with their
  // payments, some overdue; then ANALYZE, as autovacuum would.
  await seedAll(t.db, 2_000, '$argon2id$not-a-real-hash', () => {});
  const { user, password } = await t.createUser({ role: 'admin' });
  admin = await t.loginAs(user.username!, password);
}, 120_000);
afterAll(() => t.close());

describe('the name search route', () => {
  it('is the names only once the estimates say names repeat (never on a database never analysed)', async () => {
    expect(beforeSeeding).toBe(false);
    expect(await new NameSearchRoute(t.db).byNames()).toBe(true);
  });

  it('keeps the rows’ own indexes where every name is distinct', async () => {
    const unique = await createTestApp();
    try {
      await seedAll(unique.db, 600, '$argon2id$not-a-real-hash', () => {}, 'unique');
      const { rows } = await sql<{
        names: number;
      }>`select count(*)::int as names from borrower_names`.execute(unique.db);
      expect(rows[0]!.names).toBeGreaterThan(590);
      expect(await new NameSearchRoute(unique.db).byNames()).toBe(false);
    } finally {
      await unique.close();
    }
  });

  it('finds the same rows in the same order both ways, on every searched list', async () => {
    const lists = [
      '/api/staff/applications/pending',
      '/api/staff/applications/approved',
      '/api/staff/loans',
      '/api/staff/disbursements',
      '/api/staff/repayments',
      '/api/staff/overdue',
      '/api/staff/overdue?bucket=1-30',
    ];
    const searches = [
      'name=maria',
      'name=MARIA%20SANTOS',
      'name=a',
      'name=cruz&page=2',
      'name=zzz',
      'name=a&phone=77',
    ];
    const answer = async (url: string, byNames: boolean) => {
      t.deps.nameSearch = new NameSearchRoute(t.db, { forced: byNames });
      t.deps.answerCache.clear();
      const response = await admin.get(url);
      expect(response.status, `${url}: ${response.text}`).toBe(200);
      return response.body;
    };
    let found = 0;
    for (const list of lists) {
      for (const search of searches) {
        const url = `${list}${list.includes('?') ? '&' : '?'}${search}`;
        const byNames = await answer(url, true);
        expect(await answer(url, false), url).toEqual(byNames);
        found += byNames.items.length;
      }
    }
    // The comparison is not of empty pages.
    expect(found).toBeGreaterThan(200);
  });
});
