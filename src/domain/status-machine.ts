import { AppError, type ErrorCode } from './errors';

/** Who makes a move: staff, the borrower, or the ledger (the money records themselves). */
export type Mover = 'staff' | 'borrower' | 'ledger';

export interface StatusEvent<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
  readonly by: Mover;
  /** This event's own refusal, where it differs from the record's (e.g. "already active"). */
  readonly refusal?: ErrorCode;
}

/**
 * One record's moves as a table of events (issue #37): each event, the statuses it may start from, where it
 * leads and who makes it. Every use case asks the table (`canApply` before it writes, `statusAfter` for what
 * it writes) instead of comparing statuses by hand, and a move the table does not hold is refused with the
 * record's own 409 code, never a plain error.
 */
export function statusMachine<S extends string, E extends string>(
  events: Readonly<Record<E, StatusEvent<S>>>,
  refusal: ErrorCode,
) {
  const canApply = (event: E, from: S): boolean => (events[event].from as readonly S[]).includes(from);
  return {
    events,
    eventNames: Object.keys(events) as E[],
    canApply,
    /** The statuses `event` may start from (for a conditional update's WHERE). */
    statusesBefore: (event: E): readonly S[] => events[event].from,
    /** The status after `event`, or the record's refusal. */
    statusAfter(event: E, from: S): S {
      if (!canApply(event, from)) throw new AppError(events[event].refusal ?? refusal);
      return events[event].to;
    },
  };
}
