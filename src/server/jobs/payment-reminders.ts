import { sql } from 'kysely';
import { hourIn, todayIn } from '../../domain/date-text';
import {
  decideReminder,
  isQuietHour,
  type PastReminder,
  type ReminderKind,
  reminderKinds,
  reminderText,
} from '../../domain/loan/reminders';
import { isExampleChannel } from '../../domain/schemas/settings';
import { notifyBorrower } from '../audit/audit';
import type { AppDeps } from '../deps';
import { loanPosition } from '../loans/loan-position';
import { deliverSmsOutbox } from '../notify/sms-outbox';
import { findReminderCandidates } from './reminder-candidates';

/*
 * Payment reminders (issue #10, docs/decisions/013). Two steps, each safe to repeat and to crash in:
 * 1. enqueue — one transaction under a transaction-scoped advisory lock (one instance at a time): decide each
 *    loan's reminder for today and commit it as a `loan_reminders` row (the outbox) with the borrower's
 *    history event. A crash before the commit leaves nothing; the one-a-day unique key stops a second row.
 * 2. deliver — the outbox's sender (notify/sms-outbox.ts): claim one committed row at a time, send it with
 *    its id as the idempotency key, mark it sent; it also sends the messages of changes (docs/decisions/041).
 */

/** The advisory lock's name (hashed to its key): the same in every instance of the app. */
const LOCK_NAME = 'hiram:job:payment-reminders';
const HISTORY_CHUNK = 500;

export interface ReminderRun {
  /** Null: another instance held the lock and is enqueuing; this one only delivered. */
  enqueued: number | null;
  delivered: number;
  quietHours: boolean;
}

/** The scheduled job: enqueue today's reminders, then deliver what is committed. Nothing in quiet hours. */
export async function runPaymentReminders(deps: AppDeps, signal?: AbortSignal): Promise<ReminderRun> {
  if (isQuietHour(hourIn(deps.config.timeZone, deps.clock.now()))) {
    return { enqueued: 0, delivered: 0, quietHours: true };
  }
  const enqueued = await enqueuePaymentReminders(deps, signal);
  const delivered = await deliverPaymentReminders(deps, signal);
  return { enqueued, delivered, quietHours: false };
}

/** Step 1: decides and commits today's reminders; null when another instance is doing it right now. */
export async function enqueuePaymentReminders(deps: AppDeps, signal?: AbortSignal): Promise<number | null> {
  const now = deps.clock.now();
  const { timeZone } = deps.config;
  const today = todayIn(timeZone, now);
  const hour = hourIn(timeZone, now);
  return deps.db.transaction().execute(async (trx) => {
    const lock = await sql<{ locked: boolean }>`
      select pg_try_advisory_xact_lock(hashtext(${LOCK_NAME})) as locked`.execute(trx);
    if (!lock.rows[0]?.locked) return null;

    // A message not sent on its day is not sent late: tomorrow's decision replaces it (one a day).
    await trx
      .updateTable('loan_reminders')
      .set({ status: 'expired' })
      .where('status', '=', 'pending')
      .where('reminder_day', '<', today)
      // The message of a change is not a daily decision: it waits for the sender however long it takes.
      .where('kind', 'in', reminderKinds)
      .execute();

    const candidates = await findReminderCandidates(trx, today, deps.config.reminderRules.daysBefore);
    const past = new Map<string, PastReminder[]>();
    for (let i = 0; i < candidates.length; i += HISTORY_CHUNK) {
      const ids = candidates.slice(i, i + HISTORY_CHUNK).map((c) => c.id);
      const rows = await trx
        .selectFrom('loan_reminders')
        .select(['application_id', 'kind'])
        .select(sql<string>`due_date::text`.as('due_date'))
        .select(sql<string>`reminder_day::text`.as('reminder_day'))
        .where('application_id', 'in', ids)
        .where('kind', 'in', reminderKinds)
        // Sent, or committed and on its way; failed and expired ones were never received.
        .where('status', 'in', ['pending', 'sending', 'sent'])
        .execute();
      for (const row of rows) {
        // A reminder always has its loan (a check constraint, migration 030).
        const loanId = row.application_id as string;
        const list = past.get(loanId) ?? [];
        list.push({ kind: row.kind as ReminderKind, dueDate: row.due_date, day: row.reminder_day });
        past.set(loanId, list);
      }
    }

    // Example channels (PAYMENT_CHANNELS not set up, docs/decisions/037) are never sent as a way to pay.
    const channels = deps.config.paymentChannels.filter(
      (c) => c.accountDetails !== null && !isExampleChannel(c),
    );
    let enqueued = 0;
    for (const loan of candidates) {
      // Shutting down: roll the day's decisions back rather than hold the process; the next start redoes them.
      signal?.throwIfAborted();
      let decision: ReturnType<typeof decideReminder>;
      try {
        const { position } = await loanPosition(trx, loan, deps, today);
        decision = decideReminder({
          status: loan.status,
          position,
          past: past.get(loan.id) ?? [],
          today,
          hour,
          rules: deps.config.reminderRules,
        });
      } catch (error) {
        // One loan's bad data must not stop everyone else's reminders.
        deps.log.error({ err: error, loanId: loan.id }, 'payment reminder: cannot decide');
        continue;
      }
      if (!decision) continue;
      const inserted = await trx
        .insertInto('loan_reminders')
        .values({
          borrower_id: loan.borrower_id,
          application_id: loan.id,
          kind: decision.kind,
          due_date: decision.dueDate,
          reminder_day: today,
          phone: loan.phone,
          amount: decision.amountMinor,
          // Written now, in the borrower's language as it is today; delivery sends exactly this text.
          text: reminderText(decision, {
            language: loan.language,
            loanNumber: loan.loan_number,
            channels,
            supportEmail: deps.config.supportEmail,
          }),
        })
        .onConflict((oc) =>
          // The one-a-day key is partial (reminders only, migration 030): its predicate, written as the index's.
          oc
            .columns(['application_id', 'reminder_day'])
            .where(sql<boolean>`kind in ('before_due', 'due', 'overdue')`)
            .doNothing(),
        )
        .returning('id')
        .executeTakeFirst();
      if (!inserted) continue;
      // The borrower sees it in the wallet history; staff see the row in loan_reminders.
      await notifyBorrower(trx, {
        borrowerId: loan.borrower_id,
        applicationId: loan.id,
        kind: 'payment_reminder',
        data: {
          reminder: decision.kind,
          dueDate: decision.dueDate,
          sinceDate: decision.sinceDate,
          amountMinor: decision.amountMinor,
          daysPastDue: decision.daysPastDue,
        },
      });
      enqueued += 1;
    }
    return enqueued;
  });
}

/**
 * Step 2: delivers today's committed reminders, and any message of a change waiting, each once (the one outbox
 * and its sender, notify/sms-outbox.ts); returns how many were sent.
 */
export const deliverPaymentReminders = (deps: AppDeps, signal?: AbortSignal): Promise<number> =>
  deliverSmsOutbox(deps, signal);
