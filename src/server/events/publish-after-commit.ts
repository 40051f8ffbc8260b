import type { AppDeps } from '../deps';
import type { StaffEvent } from './bus';

/**
 * Tells open back-office screens that something changed, after the change has committed. The change is
 * saved whatever happens here, so a failing bus (a dropped LISTEN connection, a NOTIFY error) is logged and
 * never reaches the caller: answering 500 for a saved change would invite a retry of a done action.
 * Delivery is best effort; screens also poll every 30 s. Not awaited: the answer does not wait for it.
 */
export function publishAfterCommit(deps: Pick<AppDeps, 'events' | 'log'>, event: StaffEvent): void {
  const warn = (error: unknown) => deps.log.warn({ err: error, event }, 'live update not published');
  try {
    deps.events.publish(event).catch(warn);
  } catch (error) {
    warn(error);
  }
}
