import { describe, expect, it } from 'vitest';
import { RECONNECT_BASE_MS, RECONNECT_MAX_MS, reconnectDelayMs } from './bus';

describe('listener reconnect backoff', () => {
  it('starts at 0.25 s, doubles, and stays at 30 s however long the outage lasts', () => {
    expect(RECONNECT_BASE_MS).toBe(250);
    expect(RECONNECT_MAX_MS).toBe(30_000);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(reconnectDelayMs)).toEqual([
      250, 500, 1000, 2000, 4000, 8000, 16000, 30000,
    ]);
    for (const attempt of [8, 50, 1_000, Number.MAX_SAFE_INTEGER])
      expect(reconnectDelayMs(attempt)).toBe(30_000);
  });
});
