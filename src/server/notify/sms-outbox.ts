import { sql, type Transaction } from 'kysely';
import { type BorrowerMessage, isOptionalMessage } from '../../domain/borrower-messages';
import { hourIn, todayIn } from '../../domain/date-text';
import { isQuietHour, reminderKinds } from '../../domain/loan/reminders';
import { borrowerMessageSms } from '../../domain/sms-texts';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { today } from '../lib/clock';
import type { SmsMessage } from './notifier';

/*
 * The SMS outbox (docs/decisions/013 and 040): the `loan_reminders` table, named for its first use. A message
 * is committed as a row in the transaction that decides it (a reminder, or the change a borrower is told of),
 * so a rolled-back change sends nothing; the sender claims committed rows one at a time (`for update skip
 * locked`: two instances never take the same row), sends each with its row id as the idempotency key and
 * marks it sent. A sender that died after claiming leaves the row `sending`; after CLAIM_STALE_MS another
 * retries it with the same key. Nothing is sent between 22:00 and 06:00: a row committed then waits for the
 * first run after 06:00.
 */

const MAX_ATTEMPTS = 5;
/** A claim older than this is taken to be from a sender that died; its row is tried again. */
const CLAIM_STALE_MS = 10 * 60 * 1000;

/**
 * Writes the SMS of a change into the outbox, inside the change's own transaction, in the borrower's stored
 * language. Nothing for a borrower without a phone (an anonymised account), nor an optional kind the
 * borrower turned off. Returns whether a message was queued.
 */
export async function queueBorrowerMessage(
  trx: Transaction<Database>,
  deps: Pick<AppDeps, 'clock' | 'config'>,
  to: { borrowerId: string; applicationId: string | null },
  message: BorrowerMessage,
): Promise<boolean> {
  const borrower = await trx
    .selectFrom('users')
    .select(['phone', 'language', 'optional_sms'])
    .where('id', '=', to.borrowerId)
    .executeTakeFirst();
  if (!borrower?.phone) return false;
  if (isOptionalMessage(message.kind) && !borrower.optional_sms) return false;
  await trx
    .insertInto('loan_reminders')
    .values({
      borrower_id: to.borrowerId,
      application_id: to.applicationId,
      kind: message.kind,
      reminder_day: today(deps),
      phone: borrower.phone,
      text: borrowerMessageSms(borrower.language, message),
    })
    .execute();
  return true;
}

/** What the SMS gateway is told a row is (the webhook's `purpose`). */
function purposeOf(kind: string): SmsMessage['purpose'] {
  if ((reminderKinds as readonly string[]).includes(kind)) return 'payment_reminder';
  if (kind === 'complaint_reply' || kind === 'complaint_resolved') return 'complaint_update';
  return 'loan_update';
}

/**
 * Delivers committed outbox rows, each once; returns how many were sent. A reminder goes only on its own
 * civil day (a late one would tell an outdated amount); a message of a change goes whenever the hours allow.
 */
export async function deliverSmsOutbox(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  const tried = new Set<string>();
  let delivered = 0;
  for (;;) {
    // Shutting down: stop between messages; what is left stays pending for the next run.
    if (signal?.aborted) break;
    const now = deps.clock.now();
    // Checked before every message: a long run must not carry on past 22:00.
    if (isQuietHour(hourIn(deps.config.timeZone, now))) break;
    const day = todayIn(deps.config.timeZone, now);
    const staleBefore = new Date(now.getTime() - CLAIM_STALE_MS);
    const notTried = tried.size > 0 ? sql`and id not in (${sql.join([...tried])})` : sql``;
    const claimed = await sql<{ id: string; phone: string; text: string; attempts: number; kind: string }>`
      update loan_reminders
      set status = 'sending', attempts = attempts + 1, claimed_at = ${now}
      where id = (
        select id from loan_reminders
        where (reminder_day = ${day} or kind not in (${sql.join([...reminderKinds])}))
          and phone <> ''
          and attempts < ${MAX_ATTEMPTS}
          and (status = 'pending' or (status = 'sending' and claimed_at < ${staleBefore}))
          ${notTried}
        order by created_at, id
        limit 1
        for update skip locked
      )
      returning id, phone, text, attempts, kind`.execute(deps.db);
    const row = claimed.rows[0];
    if (!row) break;
    tried.add(row.id);
    try {
      await deps.notifier.send({
        phone: row.phone,
        text: row.text,
        purpose: purposeOf(row.kind),
        idempotencyKey: row.id,
      });
    } catch (error) {
      deps.log.warn({ err: error, outboxId: row.id }, 'SMS from the outbox not delivered');
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
