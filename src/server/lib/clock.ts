import { todayIn } from '../../domain/date-text';

/**
 * The app's idea of "now". Production always uses the real time; only tests build an app with another
 * clock (e.g. weeks ahead, to see an instalment overdue). No route or setting can change it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that reads `start` now and runs on in real time (test runs only: config TEST_CLOCK_START). */
export function clockStartingAt(start: Date): Clock {
  const offsetMs = start.getTime() - Date.now();
  return { now: () => new Date(Date.now() + offsetMs) };
}

/** Today's civil date ('YYYY-MM-DD') in the lender's time zone by the app's clock. */
export function today(deps: { clock: Clock; config: { timeZone: string } }): string {
  return todayIn(deps.config.timeZone, deps.clock.now());
}
