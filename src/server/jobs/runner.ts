import type { AppDeps } from '../deps';
import type { App } from '../lib/types';
import { deliverSmsOutbox } from '../notify/sms-outbox';
import { runAnonymisation } from './anonymise-closed-accounts';
import { runPaymentReminders } from './payment-reminders';
import { runOrphanSweep } from './sweep-orphan-files';

export interface Job {
  name: string;
  /** `signal` aborts when the app closes: a long run stops between items instead of holding up shutdown. */
  run(deps: AppDeps, signal: AbortSignal): Promise<unknown>;
}

/** Every scheduled job, run one after the other on each tick. */
const scheduledJobs: Job[] = [
  { name: 'payment-reminders', run: runPaymentReminders },
  { name: 'anonymise-closed-accounts', run: runAnonymisation },
  { name: 'sweep-orphan-files', run: runOrphanSweep },
];

export interface JobRunner {
  /** Runs every job once now, unless a run is under way (then waits for that one). */
  tick(): Promise<void>;
  /** No new runs; the run under way (if any) is told to stop, and this resolves once it has. */
  stop(): Promise<void>;
}

/**
 * A small interval runner: every `intervalMs` it runs the jobs in turn (the first time after
 * `firstRunAfterMs`), never two runs at once in this instance; a failing job is logged and the others still
 * run. Running exactly once across instances is
 * each job's own business (a database lock, unique keys), so every instance may run the runner.
 */
export function startJobs(
  deps: AppDeps,
  jobs: readonly Job[],
  intervalMs: number,
  firstRunAfterMs = 0,
): JobRunner {
  let running: Promise<void> | null = null;
  let stopped = false;
  const closing = new AbortController();
  const tick = (): Promise<void> => {
    if (running) return running;
    if (stopped) return Promise.resolve();
    running = (async () => {
      for (const job of jobs) {
        if (stopped) break;
        try {
          await job.run(deps, closing.signal);
        } catch (error) {
          if (closing.signal.aborted) break;
          deps.log.error({ err: error, job: job.name }, 'scheduled job failed');
        }
      }
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  const first = setTimeout(() => void tick(), firstRunAfterMs);
  first.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      closing.abort();
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}

/**
 * The SMS outbox's sender on its own short beat: the message of a change goes out moments after its commit
 * (docs/decisions/041), not at the next run of the jobs. A poll of a small partial index, cheap enough.
 */
const OUTBOX_POLL_SECONDS = 15;
const outboxJobs: Job[] = [{ name: 'sms-outbox', run: deliverSmsOutbox }];

/**
 * The jobs' first run waits this long after the app is ready: run at once, its queries (about a quarter of
 * a second of CPU on PGlite) shared the one connection with the readiness check and the first page
 * (issue #35). Shorter than any interval, so nothing waits longer than a normal beat.
 */
export const FIRST_RUN_AFTER_MS = 5_000;

/** With JOBS_ENABLED: the jobs start once the app is ready and stop (waiting for a run) when it closes. */
export function registerScheduledJobs(app: App, deps: AppDeps): void {
  let runners: JobRunner[] = [];
  app.addHook('onReady', async () => {
    const { intervalSeconds } = deps.config.jobs;
    runners = [
      startJobs(deps, scheduledJobs, intervalSeconds * 1000, FIRST_RUN_AFTER_MS),
      startJobs(deps, outboxJobs, Math.min(OUTBOX_POLL_SECONDS, intervalSeconds) * 1000, FIRST_RUN_AFTER_MS),
    ];
  });
  app.addHook('onClose', async () => {
    await Promise.all(runners.map((runner) => runner.stop()));
  });
}
