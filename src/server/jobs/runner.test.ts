import { describe, expect, it, vi } from 'vitest';
import type { AppDeps } from '../deps';
import type { App } from '../lib/types';
import { FIRST_RUN_AFTER_MS, registerScheduledJobs, startJobs } from './runner';

const depsWith = (error: (...args: unknown[]) => void) => ({ log: { error } }) as unknown as AppDeps;

describe('the job runner', () => {
  it('runs the jobs in turn, never two runs at once, and a failing job does not stop the next', async () => {
    const error = vi.fn();
    let active = 0;
    let most = 0;
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runner = startJobs(
      depsWith(error),
      [
        {
          name: 'slow',
          run: async () => {
            active += 1;
            most = Math.max(most, active);
            order.push('slow');
            await gate;
            active -= 1;
          },
        },
        {
          name: 'broken',
          run: async () => {
            order.push('broken');
            throw new Error('boom');
          },
        },
        { name: 'last', run: async () => order.push('last') },
      ],
      60_000,
    );
    const first = runner.tick();
    const second = runner.tick();
    expect(second).toBe(first);
    release();
    await first;
    expect(most).toBe(1);
    expect(order).toEqual(['slow', 'broken', 'last']);
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ job: 'broken' }), 'scheduled job failed');
    await runner.stop();
  });

  it('runs on its interval, and once stopped waits for the run under way and starts no other', async () => {
    vi.useFakeTimers();
    try {
      let runs = 0;
      let finish!: () => void;
      const runner = startJobs(
        depsWith(() => {}),
        [
          {
            name: 'count',
            run: () => {
              runs += 1;
              return new Promise<void>((resolve) => {
                finish = resolve;
              });
            },
          },
        ],
        1000,
      );
      await vi.advanceTimersByTimeAsync(0);
      expect(runs).toBe(1);
      finish();
      await vi.advanceTimersByTimeAsync(1000);
      expect(runs).toBe(2);
      let stopped = false;
      const stopping = runner.stop().then(() => {
        stopped = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped).toBe(false);
      finish();
      await stopping;
      await vi.advanceTimersByTimeAsync(5000);
      expect(runs).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells a long run to stop when stopped, and a run stopped that way is not logged as a failure', async () => {
    const error = vi.fn();
    let items = 0;
    const runner = startJobs(
      depsWith(error),
      [
        {
          name: 'endless',
          run: async (_deps, signal) => {
            while (!signal.aborted) {
              items += 1;
              await new Promise((resolve) => setTimeout(resolve, 1));
            }
            signal.throwIfAborted();
          },
        },
        { name: 'after', run: async () => error('the next job ran after a stop') },
      ],
      60_000,
    );
    const run = runner.tick();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runner.stop();
    await run;
    expect(items).toBeGreaterThan(0);
    expect(error).not.toHaveBeenCalled();
  });

  it('runs first after firstRunAfterMs, then on its interval', async () => {
    vi.useFakeTimers();
    try {
      let runs = 0;
      const runner = startJobs(
        depsWith(() => {}),
        [{ name: 'count', run: async () => void runs++ }],
        1000,
        300,
      );
      await vi.advanceTimersByTimeAsync(299);
      expect(runs).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(runs).toBe(1);
      await vi.advanceTimersByTimeAsync(700);
      expect(runs).toBe(2);
      await runner.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('an app that becomes ready leaves its scheduled jobs alone until FIRST_RUN_AFTER_MS has passed', async () => {
    vi.useFakeTimers();
    try {
      const hooks: Record<string, () => Promise<void>> = {};
      const app = {
        addHook: (name: string, hook: () => Promise<void>) => {
          hooks[name] = hook;
        },
      };
      // No database: every job that runs fails, and says so through the log.
      const error = vi.fn();
      const deps = {
        log: { error, warn: error, info: () => {}, debug: () => {} },
        config: { jobs: { enabled: true, intervalSeconds: 300 } },
      } as unknown as AppDeps;
      registerScheduledJobs(app as unknown as App, deps);
      await hooks.onReady!();
      await vi.advanceTimersByTimeAsync(FIRST_RUN_AFTER_MS - 1);
      expect(error).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(error).toHaveBeenCalled();
      await hooks.onClose!();
    } finally {
      vi.useRealTimers();
    }
  });
});
