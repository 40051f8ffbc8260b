import { sql } from 'kysely';
import {
  decideReminder,
  isQuietHour,
  type PastReminder,
  type ReminderKind,
  reminderText,
} from '../../domain/loan/reminders';
import { isExampleChannel } from '../../domain/schemas/settings';
import { notifyBorrower } from '../audit/audit';
import type { AppDeps } from '../deps';
import { hourIn, todayIn } from '../lib/today';
import { loanPosition } from '../loans/loan-position';
import { findReminderCandidates } from './reminder-candidates';

/*
 * Payment reminders (issue #10, docs/decisions/013). Two steps, each safe to repeat and to crash in:
 * 1. enqueue — one transaction under a transaction-scoped advisory lock (one instance at a time): decide each
 *    loan's reminder for today and commit it as a `loan_reminders` row (the outbox) with the borrower's
 *    history event. A crash before the commit leaves nothing; the one-a-day unique key stops a second row.
 * 2. deliver — claim one committed row at a time (`for update skip locked`, so concurrent senders never
 *    take the same row), send it with its id as the idempotency key, mark it sent. A sender that dies after
 *    claiming leaves the row `sending`; after CLAIM_STALE_MS another sender retries it with the same key.
 */

/** The advisory lock's name (hashed to its key): the same in every instance of the app. */
const LOCK_NAME = 'hiram:job:payment-reminders';
const MAX_ATTEMPTS = 5;
/** A claim older than this is taken to be from a sender that died; its row is tried again. */
const CLAIM_STALE_MS = 10 * 60 * 1000;
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
        // Sent, or committed and on its way; failed and expired ones were never received.
        .where('status', 'in', ['pending', 'sending', 'sent'])
        .execute();
      for (const row of rows) {
        const list = past.get(row.application_id) ?? [];
        list.push({ kind: row.kind as ReminderKind, dueDate: row.due_date, day: row.reminder_day });
        past.set(row.application_id, list);
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
        .onConflict((oc) => oc.columns(['application_id', 'reminder_day']).doNothing())
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

/** Step 2: delivers today's committed reminders, each once; returns how many were sent. */
export async function deliverPaymentReminders(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  const tried = new Set<string>();
  let delivered = 0;
  for (;;) {
    // Shutting down: stop between messages; what is left stays pending for the next run, today.
    if (signal?.aborted) break;
    const now = deps.clock.now();
    // Checked before every message: a long run must not carry on past 22:00.
    if (isQuietHour(hourIn(deps.config.timeZone, now))) break;
    const today = todayIn(deps.config.timeZone, now);
    const staleBefore = new Date(now.getTime() - CLAIM_STALE_MS);
    const notTried = tried.size > 0 ? sql`and id not in (${sql.join([...tried])})` : sql``;
    const claimed = await sql<{ id: string; phone: string; text: string; attempts: number }>`
      update loan_reminders
      set status = 'sending', attempts = attempts + 1, claimed_at = ${now}
      where id = (
        select id from loan_reminders
        where reminder_day = ${today}
          and attempts < ${MAX_ATTEMPTS}
          and (status = 'pending' or (status = 'sending' and claimed_at < ${staleBefore}))
          ${notTried}
        order by created_at, id
        limit 1
        for update skip locked
      )
      returning id, phone, text, attempts`.execute(deps.db);
    const row = claimed.rows[0];
    if (!row) break;
    tried.add(row.id);
    try {
      await deps.notifier.send({
        phone: row.phone,
        text: row.text,
        purpose: 'payment_reminder',
        idempotencyKey: row.id,
      });
    } catch (error) {
      deps.log.warn({ err: error, reminderId: row.id }, 'payment reminder not delivered');
      await deps.db
        .updateTable('loan_reminders')
        .set({
          status: row.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          claimed_at: null,
          last_error: error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500),
        })
        .where('id', '=', row.id)
        .where('status', '=', 'sending')
        .execute();
      continue;
    }
    await deps.db
      .updateTable('loan_reminders')
      .set({ status: 'sent', sent_at: deps.clock.now(), last_error: null })
      .where('id', '=', row.id)
      .where('status', '=', 'sending')
      .execute();
    delivered += 1;
  }
  return delivered;
}
