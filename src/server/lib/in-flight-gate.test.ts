import { describe, expect, it } from 'vitest';
import { InFlightGate } from './in-flight-gate';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('InFlightGate', () => {
  it('lets requests for a key that arrive while the first is in flight start only after it is done', async () => {
    const gate = new InFlightGate();
    const events: string[] = [];
    let release: () => void = () => {};
    const first = gate.run('k', async () => {
      events.push('first start');
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      events.push('first done');
      return 'first';
    });
    const waiting = Array.from({ length: 5 }, (_, i) =>
      gate.run('k', async () => {
        events.push(`waiter ${i}`);
        return i;
      }),
    );
    const otherKey = gate.run('other', async () => {
      events.push('other key');
      return 'other';
    });
    await tick();
    expect(events).toEqual(['first start', 'other key']);
    release();
    expect(await first).toBe('first');
    expect(await Promise.all(waiting)).toEqual([0, 1, 2, 3, 4]);
    expect(await otherKey).toBe('other');
    expect(events.slice(0, 3)).toEqual(['first start', 'other key', 'first done']);
    expect(events.slice(3).sort()).toEqual(['waiter 0', 'waiter 1', 'waiter 2', 'waiter 3', 'waiter 4']);
    expect(gate.size).toBe(0);
  });

  it('releases the waiters when the first fails, and passes the failure to its own caller only', async () => {
    const gate = new InFlightGate();
    const failing = gate.run('k', async () => {
      await tick();
      throw new Error('boom');
    });
    const next = gate.run('k', async () => 'next');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    expect(gate.size).toBe(0);
  });

  it('makes a request arriving after the first is done go first itself', async () => {
    const gate = new InFlightGate();
    await gate.run('k', async () => 'one');
    let running = 0;
    let most = 0;
    const work = async () => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
    };
    await Promise.all([gate.run('k', work), gate.run('k', work), gate.run('k', work)]);
    // The first of the three ran alone; the two that waited for it ran side by side.
    expect(most).toBe(2);
  });

  it('gives the requests released together one read, started after the last of them arrived', async () => {
    const gate = new InFlightGate();
    const reads: string[] = [];
    let release: () => void = () => {};
    let world = 'before';
    const read = (who: string) => async () => {
      reads.push(who);
      return world;
    };
    const first = gate.run('k', async (batch) => {
      const seen = await batch.once('state', read('first'));
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      world = 'after the first';
      return seen;
    });
    const waiting = Array.from({ length: 4 }, () =>
      gate.run('k', (batch) => batch.once('state', read('waiter'))),
    );
    await tick();
    const late = gate.run('k', (batch) => batch.once('state', read('late waiter')));
    await tick();
    // Nobody read while the first was in flight, not even for the waiter that came last.
    expect(reads).toEqual(['first']);
    release();
    expect(await first).toBe('before');
    expect(await Promise.all([...waiting, late])).toEqual(Array(5).fill('after the first'));
    // One read for the five released together, made after the first was done.
    expect(reads).toEqual(['first', 'waiter']);

    // A request that comes after them waited for nobody: it reads on its own.
    world = 'later';
    expect(await gate.run('k', (batch) => batch.once('state', read('next')))).toBe('later');
    expect(reads).toEqual(['first', 'waiter', 'next']);
  });

  it('passes a failed shared read to every request of the batch, and not to the next batch', async () => {
    const gate = new InFlightGate();
    let release: () => void = () => {};
    let fail = true;
    const first = gate.run(
      'k',
      () =>
        new Promise<void>((resolve) => {
          release = resolve;
        }),
    );
    const read = async () => {
      if (fail) throw new Error('database down');
      return 'ok';
    };
    const waiting = [1, 2].map(() => gate.run('k', (batch) => batch.once('state', read)));
    await tick();
    release();
    await first;
    for (const w of waiting) await expect(w).rejects.toThrow('database down');
    fail = false;
    await expect(gate.run('k', (batch) => batch.once('state', read))).resolves.toBe('ok');
  });
});
