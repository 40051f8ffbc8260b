import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn, writeIsoDate } from '../../domain/date-text';
import { addDays, addMonthsClamped } from '../../domain/loan/calendar';
import type { LoanStatus } from '../../domain/loan/status';
import type { Notifier } from '../notify/notifier';
import {
  loanNumberOf,
  seedApplication,
  seedBorrowerWithApplication,
  seedPaidDisbursement,
} from '../test-support/seed';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { deliverPaymentReminders, enqueuePaymentReminders, runPaymentReminders } from './payment-reminders';

/**
 * Payment reminders (issue #10): the job decides, commits and delivers them through the Notifier's
 * development outbox. The app runs on a settable clock; payouts are marked paid at the real time, so the
 * first due date is a month after today's real date (Manila), the same for every loan of this file.
 */
const clock = { at: new Date(), now: () => clock.at };
let t: TestApp;

const PAYOUT_DAY = todayIn('Asia/Manila');
const FIRST_DUE = addMonthsClamped(PAYOUT_DAY, 1);
/** A Manila wall-clock time (UTC+8, no daylight saving) on a civil date. */
const manila = (date: string, time: string) => new Date(`${date}T${time}:00+08:00`);
/** A due date as an English reminder writes it: the shared date writer, as the screens write it ("Nov 23, 2026"). */
const spoken = (iso: string) => writeIsoDate('en', iso) ?? iso;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    config: {
      supportEmail: 'help@lender.example',
      paymentChannels: [
        { code: 'gcash', name: 'GCash', accountDetails: '0917 555 0101 (Hiram Lending)', instructions: null },
        { code: 'cash', name: 'Cash at the office', accountDetails: null, instructions: null },
      ],
    },
  });
});
afterAll(() => t.close());

/** A borrower with a ₱100,000 loan over 12 months at 2 %, paid out today (unless not). */
async function loan(options: { status?: LoanStatus; paidOut?: boolean } = {}) {
  const { borrower: b, id } = await seedBorrowerWithApplication(t, { status: options.status ?? 'approved' });
  if (options.paidOut !== false) await seedPaidDisbursement(t.db, id, { amountMinor: 10_000_000 }, t.deps);
  const loanNumber = await loanNumberOf(t.db, id);
  return { id, phone: b.phone, loanNumber, borrowerId: b.user.id };
}

async function reminderTexts(phone: string): Promise<string[]> {
  const response = await t.local().get(`/api/dev/outbox?phone=${phone}`);
  return (response.body.messages as { text: string; purpose: string }[])
    .filter((m) => m.purpose === 'payment_reminder')
    .map((m) => m.text);
}

const rows = (id: string) =>
  t.db
    .selectFrom('loan_reminders')
    .select(['kind', 'status', 'attempts', 'amount'])
    .select(sql<string>`due_date::text`.as('due_date'))
    .select(sql<string>`reminder_day::text`.as('reminder_day'))
    .where('application_id', '=', id)
    .orderBy('created_at')
    .execute();

const at = async (date: string, time: string) => {
  clock.at = manila(date, time);
};

describe('which reminders go out', () => {
  it('reminds three days before the due date, factually, with how to pay, and shows it in the wallet', async () => {
    const l = await loan();
    await at(addDays(FIRST_DUE, -4), '10:00');
    await runPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toEqual([]);

    await at(addDays(FIRST_DUE, -3), '10:00');
    const run = await runPaymentReminders(t.deps);
    expect(run.quietHours).toBe(false);
    expect(await reminderTexts(l.phone)).toEqual([
      `Hiram reminder: your payment of ₱9,455.96 for loan ${l.loanNumber} is due on ${spoken(FIRST_DUE)}. ` +
        `Pay with reference ${l.loanNumber} to GCash 0917 555 0101 (Hiram Lending). ` +
        'If you have already paid, thank you and please ignore this. Questions or trouble paying: help@lender.example.',
    ]);
    expect(await rows(l.id)).toEqual([
      {
        kind: 'before_due',
        status: 'sent',
        attempts: 1,
        amount: 945_596,
        due_date: FIRST_DUE,
        reminder_day: addDays(FIRST_DUE, -3),
      },
    ]);
    const event = await t.db
      .selectFrom('borrower_events')
      .selectAll()
      .where('application_id', '=', l.id)
      .where('kind', '=', 'payment_reminder')
      .executeTakeFirstOrThrow();
    expect(event.data).toEqual({
      reminder: 'before_due',
      dueDate: FIRST_DUE,
      sinceDate: FIRST_DUE,
      amountMinor: 945_596,
      daysPastDue: 0,
    });

    // Later the same day, and the next day: nothing more.
    await at(addDays(FIRST_DUE, -3), '18:00');
    await runPaymentReminders(t.deps);
    await at(addDays(FIRST_DUE, -2), '10:00');
    await runPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });

  it('reminds on the due date', async () => {
    const l = await loan();
    await at(FIRST_DUE, '09:00');
    await runPaymentReminders(t.deps);
    const texts = await reminderTexts(l.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(
      `your payment of ₱9,455.96 for loan ${l.loanNumber} is due today, ${spoken(FIRST_DUE)}.`,
    );
  });

  it('reminds when overdue after the grace days, then not again before a week', async () => {
    const l = await loan();
    await at(addDays(FIRST_DUE, 4), '09:00');
    await runPaymentReminders(t.deps);
    const texts = await reminderTexts(l.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(
      `₱9,455.96 on loan ${l.loanNumber} is past due, the oldest part since ${spoken(FIRST_DUE)} (4 days).`,
    );
    expect(texts[0]).not.toMatch(/legal|court|police|arrest|penalt|warning/i);
    for (const offset of [5, 8, 10]) {
      await at(addDays(FIRST_DUE, offset), '09:00');
      await runPaymentReminders(t.deps);
    }
    expect(await reminderTexts(l.phone)).toHaveLength(1);
    await at(addDays(FIRST_DUE, 11), '09:00');
    await runPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toHaveLength(2);
    expect((await rows(l.id)).map((r) => r.kind)).toEqual(['overdue', 'overdue']);
  });

  it('sends nothing between 22:00 and 06:00 Manila time', async () => {
    const l = await loan();
    for (const time of ['23:00', '22:00']) {
      await at(FIRST_DUE, time);
      expect(await runPaymentReminders(t.deps)).toEqual({ enqueued: 0, delivered: 0, quietHours: true });
    }
    await at(addDays(FIRST_DUE, 1), '05:59');
    await runPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toEqual([]);
    expect(await rows(l.id)).toEqual([]);
    await at(addDays(FIRST_DUE, 1), '06:00');
    await runPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
    expect((await reminderTexts(l.phone))[0]).toContain(`was due on ${spoken(FIRST_DUE)}`);
  });

  it('does not deliver a message after 22:00 that was committed before, nor late the next day', async () => {
    const l = await loan();
    await at(FIRST_DUE, '21:59');
    expect(await enqueuePaymentReminders(t.deps)).toBeGreaterThanOrEqual(1);
    await at(FIRST_DUE, '22:01');
    await deliverPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toEqual([]);
    // The next morning yesterday's is expired and today's decided afresh: one message, today's.
    await at(addDays(FIRST_DUE, 1), '07:00');
    await runPaymentReminders(t.deps);
    expect((await rows(l.id)).map((r) => [r.reminder_day, r.status])).toEqual([
      [FIRST_DUE, 'expired'],
      [addDays(FIRST_DUE, 1), 'sent'],
    ]);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });

  it('sends nothing for closed, unpaid-out or pending loans', async () => {
    const closed = await loan({ status: 'closed' });
    const notPaidOut = await loan({ paidOut: false });
    const pending = await loan({ status: 'pending', paidOut: false });
    for (const date of [addDays(FIRST_DUE, -3), FIRST_DUE, addDays(FIRST_DUE, 5)]) {
      await at(date, '10:00');
      await runPaymentReminders(t.deps);
    }
    for (const l of [closed, notPaidOut, pending]) {
      expect(await reminderTexts(l.phone)).toEqual([]);
      expect(await rows(l.id)).toEqual([]);
    }
  });

  it('keeps reminding a loan on hold (it still owes)', async () => {
    const l = await loan({ status: 'on_hold' });
    await at(FIRST_DUE, '10:00');
    await runPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });
});

describe('exactly once', () => {
  it('sends each reminder once when the job runs twice, or twice at the same time', async () => {
    const loans = await Promise.all([loan(), loan(), loan(), loan()]);
    await at(addDays(FIRST_DUE, -2), '08:00');
    const results = await Promise.all([runPaymentReminders(t.deps), runPaymentReminders(t.deps)]);
    await runPaymentReminders(t.deps);
    for (const l of loans) {
      expect(await reminderTexts(l.phone)).toHaveLength(1);
      expect(await rows(l.id)).toHaveLength(1);
    }
    if (t.kind === 'postgres') {
      // Truly concurrent on PostgreSQL: one held the lock; the other enqueued nothing or found nothing left.
      expect(results.filter((r) => r.enqueued !== null && r.enqueued > 0)).toHaveLength(1);
    }
  });

  it('a crash before the commit leaves nothing, and the next run sends it once', async () => {
    const l = await loan();
    await sql`
      create function fail_reminder_event() returns trigger language plpgsql as $$
      begin
        raise exception 'simulated crash after enqueue, before commit';
      end $$`.execute(t.db);
    await sql`
      create trigger fail_reminder_event before insert on borrower_events
      for each row when (new.kind = 'payment_reminder') execute function fail_reminder_event()`.execute(t.db);
    await at(FIRST_DUE, '11:00');
    try {
      await expect(runPaymentReminders(t.deps)).rejects.toThrow(/simulated crash/);
    } finally {
      await sql`drop trigger fail_reminder_event on borrower_events`.execute(t.db);
      await sql`drop function fail_reminder_event()`.execute(t.db);
    }
    expect(await rows(l.id)).toEqual([]);
    expect(await reminderTexts(l.phone)).toEqual([]);
    await runPaymentReminders(t.deps);
    await runPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });

  it('a crash after the commit, before delivery, loses nothing: the next run delivers it once', async () => {
    const l = await loan();
    await at(FIRST_DUE, '12:00');
    await enqueuePaymentReminders(t.deps);
    expect((await rows(l.id)).map((r) => r.status)).toEqual(['pending']);
    expect(await reminderTexts(l.phone)).toEqual([]);
    await at(FIRST_DUE, '12:05');
    await runPaymentReminders(t.deps);
    await runPaymentReminders(t.deps);
    expect((await rows(l.id)).map((r) => r.status)).toEqual(['sent']);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });

  it('an app shutting down stops between items: nothing half-done, the rest goes out on the next run', async () => {
    const l = await loan();
    await at(FIRST_DUE, '12:30');
    const closing = new AbortController();
    closing.abort();
    // Deciding stops and rolls back; delivering stops before the first message.
    await expect(enqueuePaymentReminders(t.deps, closing.signal)).rejects.toThrow();
    expect(await rows(l.id)).toEqual([]);
    await enqueuePaymentReminders(t.deps);
    expect(await deliverPaymentReminders(t.deps, closing.signal)).toBe(0);
    expect((await rows(l.id)).map((r) => r.status)).toEqual(['pending']);
    expect(await reminderTexts(l.phone)).toEqual([]);
    await runPaymentReminders(t.deps);
    expect((await rows(l.id)).map((r) => r.status)).toEqual(['sent']);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });

  it('a gateway that fails after accepting is retried with the same key, so the borrower gets one', async () => {
    const l = await loan();
    await at(FIRST_DUE, '13:00');
    await enqueuePaymentReminders(t.deps);
    const acceptsThenFails: Notifier = {
      async send(message) {
        await t.deps.notifier.send(message);
        throw new Error('connection reset after the gateway accepted');
      },
    };
    await deliverPaymentReminders({ ...t.deps, notifier: acceptsThenFails });
    expect((await rows(l.id)).map((r) => [r.status, r.attempts])).toEqual([['pending', 1]]);
    await runPaymentReminders(t.deps);
    expect((await rows(l.id)).map((r) => [r.status, r.attempts])).toEqual([['sent', 2]]);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });

  it('a sender that died while sending is taken over only after its claim went stale', async () => {
    const l = await loan();
    await at(FIRST_DUE, '14:00');
    await enqueuePaymentReminders(t.deps);
    const claim = (minutesAgo: number) =>
      t.db
        .updateTable('loan_reminders')
        .set({
          status: 'sending',
          claimed_at: new Date(clock.at.getTime() - minutesAgo * 60_000),
          attempts: 1,
        })
        .where('application_id', '=', l.id)
        .execute();
    await claim(1);
    await deliverPaymentReminders(t.deps);
    expect(await reminderTexts(l.phone)).toEqual([]);
    await claim(11);
    await deliverPaymentReminders(t.deps);
    expect((await rows(l.id)).map((r) => [r.status, r.attempts])).toEqual([['sent', 2]]);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });

  it('gives up after five refused attempts, and the reminder is decided again the next day', async () => {
    const l = await loan();
    await at(addDays(FIRST_DUE, 1), '15:00');
    await enqueuePaymentReminders(t.deps);
    const refuses: Notifier = {
      async send() {
        throw new Error('gateway answered 503');
      },
    };
    for (let i = 0; i < 6; i++) await deliverPaymentReminders({ ...t.deps, notifier: refuses });
    expect((await rows(l.id)).map((r) => [r.status, r.attempts])).toEqual([['failed', 5]]);
    await at(addDays(FIRST_DUE, 2), '09:00');
    await runPaymentReminders(t.deps);
    expect((await rows(l.id)).map((r) => [r.kind, r.status])).toEqual([
      ['due', 'failed'],
      ['due', 'sent'],
    ]);
    expect(await reminderTexts(l.phone)).toHaveLength(1);
  });
});

describe('the scheduled job', () => {
  it('runs by itself in an app started with JOBS_ENABLED, and stops when the app closes', async () => {
    const own = { at: manila(FIRST_DUE, '10:00'), now: () => own.at };
    const app = await createTestApp({ clock: own, config: { jobs: { enabled: true, intervalSeconds: 10 } } });
    try {
      const b = await app.signUpBorrower();
      const id = await seedApplication(app.db, { borrowerId: b.user.id, phone: b.phone, status: 'approved' });
      await seedPaidDisbursement(app.db, id, { amountMinor: 10_000_000 }, app.deps);
      // The first run comes a few seconds after the start (FIRST_RUN_AFTER_MS), the next on the interval.
      const deadline = Date.now() + 20_000;
      let sent = 0;
      while (Date.now() < deadline && sent === 0) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const outbox = await app.local().get(`/api/dev/outbox?phone=${b.phone}`);
        sent = outbox.body.messages.filter(
          (m: { purpose: string }) => m.purpose === 'payment_reminder',
        ).length;
      }
      expect(sent).toBe(1);
    } finally {
      await app.close();
    }
  }, 40_000);
});
