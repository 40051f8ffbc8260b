import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache';

function cacheAt(ttlMs: number, maxEntries = 10, hearingChanges = () => true) {
  let now = 1_000;
  const cache = new SessionCache<string>(ttlMs, { maxEntries, now: () => now, hearingChanges });
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('SessionCache', () => {
  it('answers with the row and its age until the time limit', () => {
    const { cache, advance } = cacheAt(2_000);
    cache.set('s1', 'u1', 'row', cache.begin());
    advance(1_500);
    expect(cache.get('s1')).toEqual({ row: 'row', ageMs: 1_500 });
    advance(500);
    expect(cache.get('s1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('ages a row from when its lookup began, not from when it answered', () => {
    const { cache, advance } = cacheAt(2_000);
    const ticket = cache.begin();
    advance(300);
    cache.set('s1', 'u1', 'row', ticket);
    expect(cache.get('s1')?.ageMs).toBe(300);
    advance(1_700);
    expect(cache.get('s1')).toBeUndefined();
  });

  it('keeps nothing while changes made elsewhere are not being heard', () => {
    let hearing = false;
    const { cache } = cacheAt(2_000, 10, () => hearing);
    cache.set('s1', 'u1', 'row', cache.begin());
    expect(cache.get('s1')).toBeUndefined();
    hearing = true;
    cache.set('s1', 'u1', 'row', cache.begin());
    expect(cache.get('s1')?.row).toBe('row');
  });

  it('keeps nothing when turned off (0)', () => {
    const { cache } = cacheAt(0);
    cache.set('s1', 'u1', 'row', cache.begin());
    expect(cache.get('s1')).toBeUndefined();
  });

  it('does not keep a read that began before the cache was emptied (a write raced it)', () => {
    const { cache } = cacheAt(2_000);
    const before = cache.begin();
    cache.clear();
    cache.set('s1', 'u1', 'old row', before);
    expect(cache.get('s1')).toBeUndefined();
    const again = cache.begin();
    cache.forgetUser('someone else');
    cache.set('s1', 'u1', 'old row', again);
    expect(cache.get('s1')).toBeUndefined();
    cache.set('s1', 'u1', 'new row', cache.begin());
    expect(cache.get('s1')?.row).toBe('new row');
  });

  it("forgets every session of one user and only that user's", () => {
    const { cache } = cacheAt(2_000);
    const g = cache.begin();
    cache.set('a1', 'alice', 'a', g);
    cache.set('a2', 'alice', 'a', g);
    cache.set('b1', 'bob', 'b', g);
    cache.forgetUser('alice');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')?.row).toBe('b');
    expect(cache.size).toBe(1);
  });

  it('drops the oldest entry beyond its size', () => {
    const { cache } = cacheAt(2_000, 2);
    const g = cache.begin();
    cache.set('s1', 'u1', 'one', g);
    cache.set('s2', 'u2', 'two', g);
    cache.set('s3', 'u3', 'three', g);
    expect(cache.get('s1')).toBeUndefined();
    expect(cache.get('s2')?.row).toBe('two');
    expect(cache.get('s3')?.row).toBe('three');
    expect(cache.size).toBe(2);
    cache.forgetUser('u1');
    expect(cache.size).toBe(2);
  });
});
