import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedQueue', () => {
  it('runs one task at a time per key, in arrival order, and different keys side by side', async () => {
    const queue = new KeyedQueue();
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    let acrossKeys = 0;
    let mostAcrossKeys = 0;
    const started: string[] = [];
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const key = `k${i % 3}`;
        return queue.run(key, async () => {
          started.push(`${key}:${i}`);
          running.set(key, (running.get(key) ?? 0) + 1);
          most.set(key, Math.max(most.get(key) ?? 0, running.get(key)!));
          acrossKeys += 1;
          mostAcrossKeys = Math.max(mostAcrossKeys, acrossKeys);
          await tick();
          acrossKeys -= 1;
          running.set(key, running.get(key)! - 1);
          return i;
        });
      }),
    );
    expect(results).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect([...most.values()]).toEqual([1, 1, 1]);
    expect(mostAcrossKeys).toBe(3);
    for (const key of ['k0', 'k1', 'k2']) {
      const order = started.filter((s) => s.startsWith(`${key}:`)).map((s) => Number(s.split(':')[1]));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(queue.size).toBe(0);
  });

  it('goes on with the next task when one fails, and passes the failure to its own caller only', async () => {
    const queue = new KeyedQueue();
    const failing = queue.run('k', async () => {
      await tick();
      throw new Error('boom');
    });
    const next = queue.run('k', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    expect(queue.size).toBe(0);
  });
});
