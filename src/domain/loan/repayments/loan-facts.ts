import { addDays } from '../calendar';
import { deriveLoanPosition, type LoanRecords } from './ledger';

/**
 * The few facts of a loan's position that SQL needs to find loans by their state over the whole book
 * (docs/decisions/012): a cache of `deriveLoanPosition`, computed on the day of a money event and true on
 * every later day until the next event, so the database can answer "overdue for how long?" and "how much
 * principal is out?" for any today without a replay.
 *
 * Why they stay true as days pass: unpaid instalments are always the last ones of the schedule (a repayment
 * pays the oldest first and money is held ahead only when nothing is due), and the amount of the oldest one
 * does not change when it falls due. The only figure that moves by itself is the outstanding principal: money
 * held ahead settles the next instalment on its due date, and its principal part stops being outstanding
 * then. That step is stored too (`heldPrincipalMinor` from `heldAppliesOn`).
 */
export interface LoanFacts {
  /** The day they were computed (the event's day). */
  asOf: string;
  /** Principal paid out and not yet repaid, on `asOf`. */
  outstandingPrincipalMinor: number;
  /**
   * The model's `nextPayment`: due date of the oldest instalment not fully paid, null when none is left.
   * Before it, nothing is due; after it (date < today), the loan is past due since then:
   * days past due = today − nextDueOn.
   */
  nextDueOn: string | null;
  /** What is still unpaid of that instalment (null with `nextDueOn`). */
  nextDueMinor: number | null;
  /**
   * The first day that instalment is overdue, by the loan's own grace days: nextDueOn + grace + 1 (null with
   * `nextDueOn`). One meaning of overdue for SQL as for the replay (issue #31).
   */
  overdueFrom: string | null;
  /** The principal part of money held ahead, no longer outstanding from `heldAppliesOn` (0 when none). */
  heldPrincipalMinor: number;
  heldAppliesOn: string | null;
  /**
   * Every instalment not fully paid, oldest first: its due date and what is unpaid of it. Unchanged by the
   * passing days, so on any day: due and unpaid = the sum of those due by then; the next due date = the first
   * after it. (The first is `nextDueOn`/`nextDueMinor`.)
   */
  unpaidInstalments: { dueOn: string; unpaidMinor: number }[];
}

/** The facts of a loan on `asOf`, from its records (everything recorded up to that day). */
export function deriveLoanFacts(records: LoanRecords, asOf: string): LoanFacts {
  const position = deriveLoanPosition(records, asOf);
  let heldPrincipalMinor = 0;
  let heldAppliesOn: string | null = null;
  if (position.paidAheadMinor > 0) {
    // Held towards the first instalment not yet due; it settles on that instalment's due date.
    const pending = position.schedule.find((row) => !row.fixed);
    if (pending) {
      const then = deriveLoanPosition(records, pending.dueDate);
      const step = position.outstandingPrincipalMinor - then.outstandingPrincipalMinor;
      if (step !== 0) {
        heldPrincipalMinor = step;
        heldAppliesOn = pending.dueDate;
      }
    }
  }
  return {
    asOf,
    outstandingPrincipalMinor: position.outstandingPrincipalMinor,
    nextDueOn: position.nextPayment?.dueDate ?? null,
    nextDueMinor: position.nextPayment?.amountMinor ?? null,
    overdueFrom: position.nextPayment ? addDays(position.nextPayment.dueDate, position.graceDays + 1) : null,
    heldPrincipalMinor,
    heldAppliesOn,
    unpaidInstalments: position.schedule
      .filter((row) => row.unpaidMinor > 0)
      .map((row) => ({ dueOn: row.dueDate, unpaidMinor: row.unpaidMinor })),
  };
}
