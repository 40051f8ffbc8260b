import { hourIn } from '../../domain/date-text';
import type { AppDeps } from '../deps';
import { deliverSmsOutbox } from '../notify/sms-outbox';

/**
 * Runs the SMS outbox's sender as the running app would, at noon of the app clock's day in the lender's time
 * zone: a test reading what was sent must not depend on the hour it runs at (nothing goes 22:00–06:00).
 */
export function deliverOutboxAtNoon(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const noon = new Date(now.getTime() + (12 - hourIn(deps.config.timeZone, now)) * 3_600_000);
  return deliverSmsOutbox({ ...deps, clock: { now: () => noon } });
}
