import type { WalletResponse } from '../../domain/schemas/wallet';

type Position = NonNullable<NonNullable<WalletResponse['repayment']>['position']>;

/** One instalment named on the card: its number, due date and what is still unpaid of it. */
export interface NamedInstalment {
  number: number;
  dueDate: string;
  unpaidMinor: number;
  overdue: boolean;
}

/**
 * What the borrower must know first about a loan that has been paid out (issue #32), from the server's
 * position: every figure here is the server's, this only picks which to show.
 * - overdue: something is past its grace days; the amount brings the loan up to date (late charges included).
 * - due: an instalment has fallen due and is still in its grace days (or due today).
 * - upcoming: nothing is due; the next instalment and the one after it.
 * - owing: no instalment is left but something is owed (the payoff).
 * - paidInFull: nothing is owed.
 */
export type LoanNow =
  | {
      kind: 'overdue' | 'due';
      /** The one figure "pay this to be up to date" (the position's amountDueNowMinor). */
      amountMinor: number;
      daysLate: number;
      /** The oldest unpaid due date. */
      since: string;
      /** Due only: the last day of its grace days; unpaid after it, it is overdue (and late charges run). */
      payBy: string | null;
      instalments: NamedInstalment[];
      lateChargesMinor: number;
      /** The first instalment not yet due, after this. */
      after: NamedInstalment | null;
    }
  | { kind: 'upcoming'; next: NamedInstalment; after: NamedInstalment | null }
  /** Owed with no instalment left (money sent back that a reversal then made owed again): the payoff. */
  | { kind: 'owing'; amountMinor: number }
  | { kind: 'paidInFull'; on: string | null };

const named = (row: Position['schedule'][number]): NamedInstalment => ({
  number: row.number,
  dueDate: row.dueDate,
  unpaidMinor: row.unpaidMinor,
  overdue: row.status === 'overdue',
});

function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function loanNow(position: Position, closedOn: string | null): LoanNow {
  const unpaid = position.schedule.filter((row) => row.unpaidMinor > 0);
  // Fallen due: its due date has come (an unpaid instalment not yet due is a projection).
  const fallen = unpaid.filter((row) => row.dueDate <= position.asOf);
  const ahead = unpaid.filter((row) => row.dueDate > position.asOf);
  if (position.amountDueNowMinor > 0) {
    const overdue =
      fallen.some((row) => row.status === 'overdue') || position.daysPastDue > position.graceDays;
    const oldest = fallen[0];
    const since = oldest?.dueDate ?? position.asOf;
    return {
      kind: overdue ? 'overdue' : 'due',
      amountMinor: position.amountDueNowMinor,
      daysLate: overdue ? position.daysPastDue : Math.max(0, oldest ? oldest.daysPastDue : 0),
      since,
      payBy: overdue || !oldest ? null : addDays(oldest.dueDate, position.graceDays),
      instalments: fallen.map(named),
      lateChargesMinor: position.lateChargesDueMinor,
      after: ahead[0] ? named(ahead[0]) : null,
    };
  }
  const [next, second] = ahead;
  if (next && position.payoffMinor > 0) {
    return { kind: 'upcoming', next: named(next), after: second ? named(second) : null };
  }
  if (position.payoffMinor > 0) return { kind: 'owing', amountMinor: position.payoffMinor };
  return { kind: 'paidInFull', on: closedOn };
}
