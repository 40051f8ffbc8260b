import type { Language } from '../languages';
import { reminderSms } from '../sms-texts';
import { addDays, daysBetween } from './calendar';
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
  /** The borrower's stored language (issue #36): the whole message is written in it. */
  language: Language;
  loanNumber: string;
  /** Channels with account details the borrower can pay to. */
  channels: readonly { name: string; accountDetails: string | null }[];
  supportEmail: string;
}

/**
 * The SMS in the borrower's language (the catalogue in sms-texts.ts). Facts only: amount, due date, how to
 * pay (the loan number as the payment reference and the lender's channels), and where to ask — never a threat.
 */
export function reminderText(decision: ReminderDecision, context: ReminderTextContext): string {
  const kind =
    decision.kind === 'due' ? (decision.daysPastDue === 0 ? 'due_today' : 'due_past') : decision.kind;
  return reminderSms(context.language, {
    kind,
    amountMinor: decision.amountMinor,
    date: decision.kind === 'overdue' ? decision.sinceDate : decision.dueDate,
    daysPastDue: decision.daysPastDue,
    loanNumber: context.loanNumber,
    channels: context.channels.flatMap((c) =>
      c.accountDetails !== null ? [`${c.name} ${c.accountDetails}`] : [],
    ),
    supportEmail: context.supportEmail,
  });
}
