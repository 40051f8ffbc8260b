import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache';

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
    expect(await cache.get('k', reads.read)).toBe(1);
    advance(1_999);
    expect(await cache.get('k', reads.read)).toBe(1);
    advance(1);
    expect(await cache.get('k', reads.read)).toBe(2);
    expect(reads.calls).toBe(2);
  });

  it('reads again when the clock went back', async () => {
    const { cache, advance } = cacheAt(2_000);
    const reads = counter();
    await cache.get('k', reads.read);
    advance(-1);
    expect(await cache.get('k', reads.read)).toBe(2);
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
    const first = cache.get('k', read);
    const second = cache.get('k', read);
    finish('answer');
    expect(await Promise.all([first, second])).toEqual(['answer', 'answer']);
    expect(calls).toBe(1);
  });

  it('reads again after an emptying, even when the earlier read is still under way', async () => {
    const { cache } = cacheAt(2_000);
    let finishOld: (value: string) => void = () => {};
    const old = cache.get(
      'k',
      () =>
        new Promise<string>((resolve) => {
          finishOld = resolve;
        }),
    );
    cache.clear();
    const fresh = cache.get('k', async () => 'after the write');
    finishOld('before the write');
    expect(await old).toBe('before the write');
    expect(await fresh).toBe('after the write');
    // The old read, settling last, did not put itself back.
    expect(await cache.get('k', async () => 'third')).toBe('after the write');
  });

  it('ages a slow read from when it began, not from when it answered', async () => {
    const { cache, advance } = cacheAt(2_000);
    let finish: (value: string) => void = () => {};
    const slow = cache.get(
      'k',
      () =>
        new Promise<string>((resolve) => {
          finish = resolve;
        }),
    );
    advance(1_500);
    finish('read at the start');
    expect(await slow).toBe('read at the start');
    advance(499);
    expect(await cache.get('k', async () => 'not read')).toBe('read at the start');
    advance(1);
    expect(await cache.get('k', async () => 'read again')).toBe('read again');
  });

  it('an older read failing after an emptying does not drop the newer answer', async () => {
    const { cache } = cacheAt(2_000);
    let fail: (error: Error) => void = () => {};
    const old = cache.get(
      'k',
      () =>
        new Promise<string>((_, reject) => {
          fail = reject;
        }),
    );
    cache.clear();
    expect(await cache.get('k', async () => 'newer')).toBe('newer');
    fail(new Error('down'));
    await expect(old).rejects.toThrow('down');
    expect(await cache.get('k', async () => 'not read')).toBe('newer');
  });

  it('keys answers apart', async () => {
    const { cache } = cacheAt(2_000);
    expect(await cache.get('a', async () => 'A')).toBe('A');
    expect(await cache.get('b', async () => 'B')).toBe('B');
    expect(await cache.get('a', async () => 'not read')).toBe('A');
  });

  it('does not keep a failed read', async () => {
    const { cache } = cacheAt(2_000);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.size).toBe(0);
    expect(await cache.get('k', async () => 'ok')).toBe('ok');
  });

  it('keeps nothing when turned off (0) or while changes are not being heard', async () => {
    const off = cacheAt(0).cache;
    const reads = counter();
    await off.get('k', reads.read);
    await off.get('k', reads.read);
    expect(reads.calls).toBe(2);

    let hearing = false;
    const { cache } = cacheAt(2_000, 10, () => hearing);
    const more = counter();
    await cache.get('k', more.read);
    await cache.get('k', more.read);
    expect(more.calls).toBe(2);
    hearing = true;
    await cache.get('k', more.read);
    await cache.get('k', more.read);
    expect(more.calls).toBe(3);
  });

  it('drops the oldest entry beyond its size', async () => {
    const { cache } = cacheAt(2_000, 2);
    await cache.get('a', async () => 'A');
    await cache.get('b', async () => 'B');
    await cache.get('c', async () => 'C');
    expect(cache.size).toBe(2);
    expect(await cache.get('a', async () => 'A again')).toBe('A again');
    expect(await cache.get('c', async () => 'not read')).toBe('C');
  });
});
