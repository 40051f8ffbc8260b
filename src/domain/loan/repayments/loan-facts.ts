import { addDays } from '../calendar';
import { deriveLoanPosition, type LoanRecords } from './ledger';

/**
 * The few facts of a loan's position that SQL needs to find loans by their state over the whole book
 * (docs/decisions/012): a cache of `deriveLoanPosition`, computed on the day of a money event and true on
 * every later day until the next event, so the database can answer "overdue for how long?" and "how much
 * principal is out?" for any today without a replay.
 *
 * Why they stay true as days pass: unpaid instalments are always the last ones of the schedule (a repayment
 * pays the oldest first, and money paid ahead goes to the next instalment only when nothing is due), and
 * the amount of an instalment does not change when it falls due (its payment is the level payment, and
 * money paid towards it stays paid). Principal paid ahead stops being owed the day it arrives
 * (docs/decisions/035); the only step the outstanding principal takes by itself is on the next due date,
 * when money paid towards that instalment as principal pays its interest instead and the principal is owed
 * again. That step is stored too (`principalStepMinor` from `principalStepOn`).
 */
export interface LoanFacts {
  /** The day they were computed (the event's day). */
  asOf: string;
  /** Principal paid out and not yet repaid. */
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
  /** Principal owed again from `principalStepOn` (the next due date), 0 and null when none. */
  principalStepMinor: number;
  principalStepOn: string | null;
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
  let principalStepMinor = 0;
  let principalStepOn: string | null = null;
  const pending = position.paidAheadMinor > 0 ? position.schedule.find((row) => !row.fixed) : undefined;
  if (pending) {
    const step =
      deriveLoanPosition(records, pending.dueDate).outstandingPrincipalMinor -
      position.outstandingPrincipalMinor;
    if (step !== 0) {
      principalStepMinor = step;
      principalStepOn = pending.dueDate;
    }
  }
  return {
    asOf,
    outstandingPrincipalMinor: position.outstandingPrincipalMinor,
    nextDueOn: position.nextPayment?.dueDate ?? null,
    nextDueMinor: position.nextPayment?.amountMinor ?? null,
    overdueFrom: position.nextPayment ? addDays(position.nextPayment.dueDate, position.graceDays + 1) : null,
    principalStepMinor,
    principalStepOn,
    unpaidInstalments: position.schedule
      .filter((row) => row.unpaidMinor > 0)
      .map((row) => ({ dueOn: row.dueDate, unpaidMinor: row.unpaidMinor })),
  };
}
