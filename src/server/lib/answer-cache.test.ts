import { describe, expect, it } from 'vitest';
import { AnswerCache, type AnswerTable } from './answer-cache';

const USERS: readonly AnswerTable[] = ['users'];

function cacheAt(ttlMs: number, maxEntries = 10, hearingChanges = () => true) {
  let now = 1_000;
  const cache = new AnswerCache(ttlMs, { maxEntries, now: () => now, hearingChanges });
  return { cache, advance: (ms: number) => (now += ms) };
}

/** A read that counts its calls and answers with its call number. */
function counter() {
  let calls = 0;
  return {
    read: async () => {
      calls += 1;
      return calls;
    },
    get calls() {
      return calls;
    },
  };
}

describe('AnswerCache', () => {
  it('answers from one read until the time limit, aged from when that read began', async () => {
    const { cache, advance } = cacheAt(2_000);
    const reads = counter();
    expect(await cache.get('k', USERS, reads.read)).toBe(1);
    advance(1_999);
    expect(await cache.get('k', USERS, reads.read)).toBe(1);
    advance(1);
    expect(await cache.get('k', USERS, reads.read)).toBe(2);
    expect(reads.calls).toBe(2);
  });

  it('reads again when the clock went back', async () => {
    const { cache, advance } = cacheAt(2_000);
    const reads = counter();
    await cache.get('k', USERS, reads.read);
    advance(-1);
    expect(await cache.get('k', USERS, reads.read)).toBe(2);
  });

  it('shares a read still under way among the requests that ask meanwhile', async () => {
    const { cache } = cacheAt(2_000);
    let finish: (value: string) => void = () => {};
    let calls = 0;
    const read = () => {
      calls += 1;
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    };
    const first = cache.get('k', USERS, read);
    const second = cache.get('k', USERS, read);
    finish('answer');
    expect(await Promise.all([first, second])).toEqual(['answer', 'answer']);
    expect(calls).toBe(1);
  });

  it('reads again after an emptying, even when the earlier read is still under way', async () => {
    const { cache } = cacheAt(2_000);
    let finishOld: (value: string) => void = () => {};
    const old = cache.get(
      'k',
      USERS,
      () =>
        new Promise<string>((resolve) => {
          finishOld = resolve;
        }),
    );
    cache.clear();
    const fresh = cache.get('k', USERS, async () => 'after the write');
    finishOld('before the write');
    expect(await old).toBe('before the write');
    expect(await fresh).toBe('after the write');
    // The old read, settling last, did not put itself back.
    expect(await cache.get('k', USERS, async () => 'third')).toBe('after the write');
  });

  it('ages a slow read from when it began, not from when it answered', async () => {
    const { cache, advance } = cacheAt(2_000);
    let finish: (value: string) => void = () => {};
    const slow = cache.get(
      'k',
      USERS,
      () =>
        new Promise<string>((resolve) => {
          finish = resolve;
        }),
    );
    advance(1_500);
    finish('read at the start');
    expect(await slow).toBe('read at the start');
    advance(499);
    expect(await cache.get('k', USERS, async () => 'not read')).toBe('read at the start');
    advance(1);
    expect(await cache.get('k', USERS, async () => 'read again')).toBe('read again');
  });

  it('an older read failing after an emptying does not drop the newer answer', async () => {
    const { cache } = cacheAt(2_000);
    let fail: (error: Error) => void = () => {};
    const old = cache.get(
      'k',
      USERS,
      () =>
        new Promise<string>((_, reject) => {
          fail = reject;
        }),
    );
    cache.clear();
    expect(await cache.get('k', USERS, async () => 'newer')).toBe('newer');
    fail(new Error('down'));
    await expect(old).rejects.toThrow('down');
    expect(await cache.get('k', USERS, async () => 'not read')).toBe('newer');
  });

  it('keys answers apart', async () => {
    const { cache } = cacheAt(2_000);
    expect(await cache.get('a', USERS, async () => 'A')).toBe('A');
    expect(await cache.get('b', USERS, async () => 'B')).toBe('B');
    expect(await cache.get('a', USERS, async () => 'not read')).toBe('A');
  });

  it('does not keep a failed read', async () => {
    const { cache } = cacheAt(2_000);
    await expect(cache.get('k', USERS, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.size).toBe(0);
    expect(await cache.get('k', USERS, async () => 'ok')).toBe('ok');
  });

  it('keeps nothing when turned off (0) or while changes are not being heard', async () => {
    const off = cacheAt(0).cache;
    const reads = counter();
    await off.get('k', USERS, reads.read);
    await off.get('k', USERS, reads.read);
    expect(reads.calls).toBe(2);

    let hearing = false;
    const { cache } = cacheAt(2_000, 10, () => hearing);
    const more = counter();
    await cache.get('k', USERS, more.read);
    await cache.get('k', USERS, more.read);
    expect(more.calls).toBe(2);
    hearing = true;
    await cache.get('k', USERS, more.read);
    await cache.get('k', USERS, more.read);
    expect(more.calls).toBe(3);
  });

  it('drops the oldest entry beyond its size', async () => {
    const { cache } = cacheAt(2_000, 2);
    await cache.get('a', USERS, async () => 'A');
    await cache.get('b', USERS, async () => 'B');
    await cache.get('c', USERS, async () => 'C');
    expect(cache.size).toBe(2);
    expect(await cache.get('a', USERS, async () => 'A again')).toBe('A again');
    expect(await cache.get('c', USERS, async () => 'not read')).toBe('C');
  });

  it('a table announced forgets only the answers that read it; anything else forgets them all', async () => {
    const { cache } = cacheAt(2_000);
    const keep = async () => {
      await cache.get('users', ['login_throttle', 'users'], async () => 'U');
      await cache.get('complaints', ['complaint_replies', 'complaints', 'users'], async () => 'C');
      await cache.get('overdue', ['applications'], async () => 'O');
    };
    await keep();
    cache.heard('complaint_replies');
    expect(cache.size).toBe(2);
    cache.heard('users');
    expect(cache.size).toBe(1);
    cache.heard('applications');
    expect(cache.size).toBe(0);
    for (const payload of ['', 'a_table_of_a_newer_version', null]) {
      await keep();
      cache.heard(payload);
      expect(cache.size, String(payload)).toBe(0);
    }
    // Another instance's marker changes nothing here.
    await keep();
    cache.heard('sync:someone-else');
    expect(cache.size).toBe(3);
    expect(await cache.get('users', [], async () => 'read again')).toBe('U');
  });

  it("borrowers' names announced keep the name searches that none of them contains", async () => {
    const { cache } = cacheAt(2_000);
    const keep = async () => {
      await cache.get('cruz', ['applications', 'disbursements'], async () => 'C', {
        borrowerNameContains: 'cruz',
      });
      await cache.get('ana', ['applications'], async () => 'A', { borrowerNameContains: 'ana' });
      await cache.get('page', ['applications'], async () => 'P');
      await cache.get('users', ['users'], async () => 'U');
    };
    await keep();
    cache.heard('applications:["maria santos"]');
    expect(cache.size).toBe(3); // the unsearched page goes
    cache.heard('applications:["juan dela cruz","rosa lim"]');
    expect(await cache.get('cruz', [], async () => 'read again')).toBe('read again');
    expect(await cache.get('ana', [], async () => 'read again')).toBe('A');
    // A name containing the text, anywhere (as `like '%ana%'`): "juana".
    cache.heard('disbursements:["juana reyes"]');
    expect(await cache.get('ana', [], async () => 'read again')).toBe('A'); // does not read disbursements
    cache.heard('applications:["juana reyes"]');
    expect(await cache.get('ana', [], async () => 'again')).toBe('again');
    // Not a table that names borrowers, not a list of names, or no names: everything goes.
    for (const payload of ['users:["x"]', 'applications:x', 'applications:[]', 'applications:[1]', 'sync']) {
      cache.clear();
      await keep();
      cache.heard(payload);
      expect(cache.size, payload).toBe(0);
    }
  });

  it('a write request catches up once its marker is heard back, and empties everything when it is not', async () => {
    let deliver = true;
    const sent: string[] = [];
    const cache: AnswerCache = new AnswerCache(2_000, {
      catchUpMs: 50,
      announce: async (payload) => {
        sent.push(payload);
        // As the database does: every announcement committed before comes first.
        if (deliver) setTimeout(() => cache.heard(payload), 1);
      },
    });
    await cache.get('users', USERS, async () => 'U');
    await cache.get('overdue', ['applications'], async () => 'O');
    await cache.caughtUp();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^sync:/);
    expect(cache.size).toBe(2);
    deliver = false;
    const started = performance.now();
    await cache.caughtUp();
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(cache.size).toBe(0);
    // A full emptying meanwhile (a lost connection) ends the wait at once: nothing read before is left.
    await cache.get('users', USERS, async () => 'U');
    const waiting = cache.caughtUp();
    await Promise.resolve();
    await Promise.resolve();
    cache.heard(null);
    await waiting;
    expect(cache.size).toBe(0);
  });

  it('write requests finishing while a marker is on its way share the next one', async () => {
    const sent: string[] = [];
    const cache: AnswerCache = new AnswerCache(2_000, {
      announce: async (payload) => {
        sent.push(payload);
        setTimeout(() => cache.heard(payload), 5);
      },
    });
    const first = cache.caughtUp();
    await new Promise((resolve) => setTimeout(resolve, 1));
    const later = [cache.caughtUp(), cache.caughtUp(), cache.caughtUp()];
    await Promise.all([first, ...later]);
    expect(sent).toHaveLength(2);
  });

  it('with nothing hearing the database, a write request empties everything', async () => {
    const { cache } = cacheAt(2_000);
    await cache.get('overdue', ['applications'], async () => 'O');
    await cache.caughtUp();
    expect(cache.size).toBe(0);
  });
});
