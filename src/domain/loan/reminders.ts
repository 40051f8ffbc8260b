import { formatMoney } from '../money';
import { addDays, daysBetween, parseIsoDate } from './calendar';
import type { LoanPosition } from './repayments';
import { isNothingOwed } from './repayments';
import { isRunning, type LoanStatus } from './status';

/*
 * Payment reminders by SMS (issue #10, docs/decisions/013): which reminder, if any, a loan gets on a day.
 * Fair collection: factual texts, at most one a day per loan, never at night, a capped overdue cadence.
 */

/** No message between 22:00 and 06:00 in the lender's time zone (SEC MC 18 s. 2019: no contact at unreasonable hours). */
export const QUIET_HOURS = { from: 22, to: 6 } as const;

export function isQuietHour(hour: number): boolean {
  return hour >= QUIET_HOURS.from || hour < QUIET_HOURS.to;
}

export interface ReminderRules {
  /** Days before a due date for the "coming up" reminder (0: none). */
  daysBefore: number;
  /** Days between two reminders about the same overdue instalment. */
  overdueEveryDays: number;
  /** Reminders about one overdue instalment, at most (0: none). */
  overdueMaxPerInstalment: number;
}

export const defaultReminderRules: ReminderRules = {
  daysBefore: 3,
  overdueEveryDays: 7,
  overdueMaxPerInstalment: 4,
};

export const reminderKinds = ['before_due', 'due', 'overdue'] as const;
export type ReminderKind = (typeof reminderKinds)[number];

/** A reminder already decided for the loan (sent or on its way): its kind, instalment and civil day. */
export interface PastReminder {
  kind: ReminderKind;
  dueDate: string;
  day: string;
}

export interface ReminderDecision {
  kind: ReminderKind;
  /** The instalment it is about (for overdue: the latest instalment that is overdue). */
  dueDate: string;
  /** before_due: that instalment's unpaid amount; due and overdue: what brings the loan up to date. */
  amountMinor: number;
  /** due: days since its due date (0 on the day, at most the grace days); overdue: days since the oldest
   * unpaid due date; before_due: 0. */
  daysPastDue: number;
  /** overdue: the oldest unpaid due date; else the same as dueDate. */
  sinceDate: string;
}

export interface ReminderInput {
  status: LoanStatus;
  position: LoanPosition;
  /** Earlier reminders of this loan that count (sent, or committed and on their way). */
  past: readonly PastReminder[];
  /** Today's civil date in the lender's time zone; the position must be as of today. */
  today: string;
  /** The hour now (0–23) in the lender's time zone. */
  hour: number;
  rules: ReminderRules;
}

/**
 * The one reminder a loan gets today, or null. Never in quiet hours, never a second one on a day, never for
 * a loan that is not running, not paid out or owes nothing. Of several due, the most pressing is sent: the
 * due day (once per instalment, on the day or, if the job could not run then, within the grace days), then
 * overdue (first on the first overdue day, then every `overdueEveryDays`, at most `overdueMaxPerInstalment`
 * per instalment that became overdue), then "coming up" (once per instalment, `daysBefore` days ahead).
 */
export function decideReminder(input: ReminderInput): ReminderDecision | null {
  const { position, past, today, rules } = input;
  if (position.asOf !== today) throw new Error(`the position is as of ${position.asOf}, not ${today}`);
  if (isQuietHour(input.hour)) return null;
  if (!isRunning(input.status) || position.startDate === null || isNothingOwed(position)) return null;
  if (past.some((r) => r.day === today)) return null;
  const sent = (kind: ReminderKind, dueDate: string) =>
    past.filter((r) => r.kind === kind && r.dueDate === dueDate);

  const unpaid = position.schedule.filter((row) => row.unpaidMinor > 0);
  const fallenDue = unpaid.filter((row) => row.dueDate <= today);

  // The due day (or within grace when the day itself was missed): the latest instalment not yet overdue.
  const dueNow = fallenDue.filter((row) => row.status !== 'overdue').at(-1);
  if (dueNow && sent('due', dueNow.dueDate).length === 0) {
    return {
      kind: 'due',
      dueDate: dueNow.dueDate,
      // The one figure that brings the loan up to date (issue #32), as the wallet and statement show it.
      amountMinor: position.amountDueNowMinor,
      daysPastDue: daysBetween(dueNow.dueDate, today),
      sinceDate: dueNow.dueDate,
    };
  }

  const overdue = fallenDue.filter((row) => row.status === 'overdue');
  const latestOverdue = overdue.at(-1);
  const oldestOverdue = overdue[0];
  if (latestOverdue && oldestOverdue && rules.overdueMaxPerInstalment > 0) {
    const earlier = sent('overdue', latestOverdue.dueDate);
    const last = earlier
      .map((r) => r.day)
      .sort()
      .at(-1);
    const spaced = last === undefined || daysBetween(last, today) >= rules.overdueEveryDays;
    if (earlier.length < rules.overdueMaxPerInstalment && spaced) {
      return {
        kind: 'overdue',
        dueDate: latestOverdue.dueDate,
        amountMinor: position.amountDueNowMinor,
        daysPastDue: daysBetween(oldestOverdue.dueDate, today),
        sinceDate: oldestOverdue.dueDate,
      };
    }
  }

  const upcoming = unpaid.find((row) => row.dueDate > today);
  if (
    upcoming &&
    rules.daysBefore > 0 &&
    addDays(upcoming.dueDate, -rules.daysBefore) <= today &&
    sent('before_due', upcoming.dueDate).length === 0
  ) {
    return {
      kind: 'before_due',
      dueDate: upcoming.dueDate,
      amountMinor: upcoming.unpaidMinor,
      daysPastDue: 0,
      sinceDate: upcoming.dueDate,
    };
  }
  return null;
}

export interface ReminderTextContext {
  loanNumber: string;
  /** Channels with account details the borrower can pay to. */
  channels: readonly { name: string; accountDetails: string | null }[];
  supportEmail: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function civilDate(iso: string): string {
  const date = parseIsoDate(iso);
  if (!date) throw new Error(`not a date: ${iso}`);
  return `${date.day} ${MONTHS[date.month - 1]} ${date.year}`;
}

/**
 * The SMS, in English (users have no stored language yet). Facts only: amount, due date, how to pay (the
 * loan number as the payment reference and the lender's channels), and where to ask — never a threat.
 */
export function reminderText(decision: ReminderDecision, context: ReminderTextContext): string {
  const amount = formatMoney(decision.amountMinor, { locale: 'en' });
  const loan = context.loanNumber;
  const payable = context.channels.filter((c) => c.accountDetails !== null);
  const howToPay =
    payable.length > 0
      ? `Pay with reference ${loan} to ${payable.map((c) => `${c.name} ${c.accountDetails}`).join('; ')}.`
      : `Quote ${loan} as the payment reference; for how to pay, contact ${context.supportEmail}.`;
  let fact: string;
  switch (decision.kind) {
    case 'before_due':
      fact = `your payment of ${amount} for loan ${loan} is due on ${civilDate(decision.dueDate)}.`;
      break;
    case 'due':
      fact =
        `your payment of ${amount} for loan ${loan} ` +
        (decision.daysPastDue === 0
          ? `is due today, ${civilDate(decision.dueDate)}.`
          : `was due on ${civilDate(decision.dueDate)}.`);
      break;
    case 'overdue': {
      const days = decision.daysPastDue === 1 ? '1 day' : `${decision.daysPastDue} days`;
      fact =
        `${amount} on loan ${loan} is past due, the oldest part since ${civilDate(decision.sinceDate)} ` +
        `(${days}).`;
      break;
    }
  }
  return (
    `Hiram reminder: ${fact} ${howToPay} If you have already paid, thank you and please ignore this. ` +
    `Questions or trouble paying: ${context.supportEmail}.`
  );
}
