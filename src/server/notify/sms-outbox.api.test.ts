import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../domain/date-text';
import type { Language } from '../../domain/languages';
import { smsCatalogue } from '../../domain/sms-texts';
import { multipartBody } from '../test-support/images';
import {
  loanNumberOf,
  payOutThroughApi,
  seedApplication,
  seedRequestedDisbursement,
  storedStatus,
} from '../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../test-support/test-app';
import type { Notifier, SmsMessage } from './notifier';
import { deliverSmsOutbox } from './sms-outbox';

/**
 * Issue #36, docs/decisions/041: every change that matters to a borrower writes exactly one SMS into the
 * outbox, in the borrower's language, in the change's own transaction; the outbox's sender delivers it once
 * (across instances and a crash), never between 22:00 and 06:00 in the lender's time zone; a borrower may
 * turn off the optional ones, never those about money or something to act on.
 */
const clock = { at: null as Date | null, now: () => clock.at ?? new Date() };
let t: TestApp;
let officer: Agent;
let finance: Agent;
let references = 0;
const ref = () => `MSG-${++references}`;

/** A Manila wall-clock time (UTC+8, no daylight saving). */
const manila = (date: string, time: string) => new Date(`${date}T${time}:00+08:00`);
const today = () => todayIn('Asia/Manila', clock.now());

beforeAll(async () => {
  t = await createTestApp({ clock });
  const o = await t.createUser({ role: 'officer' });
  const f = await t.createUser({ role: 'finance' });
  officer = await t.loginAs(o.user.username!, o.password);
  finance = await t.loginAs(f.user.username!, f.password);
});
afterAll(() => t.close());

/** A borrower who chose `language` in the app (the route the language switch calls). */
async function borrower(language: Language = 'en') {
  const b = await t.signUpBorrower();
  const agent = await t.loginAs(b.phone, b.password);
  expect((await agent.post('/api/account/language', { language })).status).toBe(200);
  return { id: b.user.id, phone: b.phone, agent };
}

async function application(borrowerId: string) {
  const id = await seedApplication(t.db, { borrowerId, status: 'pending' });
  const loanNumber = await loanNumberOf(t.db, id);
  return { id, loanNumber };
}

/** The borrower's outbox rows that are messages of a change (not payment reminders), oldest first. */
function queued(borrowerId: string) {
  return t.db
    .selectFrom('loan_reminders')
    .select(['id', 'kind', 'text', 'status', 'phone', 'application_id'])
    .where('borrower_id', '=', borrowerId)
    .where('kind', 'not in', ['before_due', 'due', 'overdue'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Runs `change`, then expects exactly one new message of `kind` for the borrower; answers its text. */
async function oneMessage(borrowerId: string, kind: string, change: () => Promise<unknown>) {
  const before = (await queued(borrowerId)).length;
  await change();
  const rows = await queued(borrowerId);
  expect(rows.length, `messages after ${kind}`).toBe(before + 1);
  const row = rows.at(-1)!;
  expect(row.kind).toBe(kind);
  expect(row.status).toBe('pending');
  return row.text;
}

async function outbox(phone: string) {
  const response = await t.local().get(`/api/dev/outbox?phone=${phone}`);
  return (response.body.messages as { text: string; purpose: string }[]).filter(
    (m) => m.purpose === 'loan_update' || m.purpose === 'complaint_update',
  );
}

async function deliverAt(at: Date) {
  clock.at = at;
  try {
    return await deliverSmsOutbox(t.deps);
  } finally {
    clock.at = null;
  }
}

const ok =
  (status: number) =>
  <R extends { status: number; text: string }>(response: R): R => {
    expect(response.status, response.text).toBe(status);
    return response;
  };

/** Every change a borrower hears of, made through the API; answers the texts queued, in order. */
async function everyChange(b: Awaited<ReturnType<typeof borrower>>) {
  const texts: Record<string, string> = {};
  // One open application at a time: declined, then another with new terms proposed (withdrawn again by
  // staff: no message), then approved; it becomes the running loan below.
  const declinedApp = await application(b.id);
  texts.declined = await oneMessage(b.id, 'application_declined', async () =>
    ok(200)(
      await officer.post(`/api/staff/applications/${declinedApp.id}/reject`, { reason: 'Income too low' }),
    ),
  );
  const loan = await application(b.id);
  texts.proposed = await oneMessage(b.id, 'terms_proposed', async () =>
    ok(200)(
      await officer.post(`/api/staff/applications/pending/${loan.id}/terms`, {
        amount: 120000,
        termMonths: 12,
      }),
    ),
  );
  const withdrawn = await officer.post(`/api/staff/applications/${loan.id}/terms-change/withdraw`, {});
  expect(withdrawn.status, withdrawn.text).toBeLessThan(300);
  texts.approved = await oneMessage(b.id, 'application_approved', async () =>
    ok(200)(await officer.post(`/api/staff/applications/${loan.id}/approve`, { creditScore: 600 })),
  );

  // The running loan: a payout that fails, one that is paid (₱50,000), repayments, a reversal, the payoff.
  const failing = await seedRequestedDisbursement(t.db, loan.id, 2_000_000);
  texts.payoutFailed = await oneMessage(b.id, 'payout_failed', async () =>
    ok(200)(await finance.post(`/api/staff/disbursements/${failing}/failed`, { reason: 'Account closed' })),
  );
  texts.payoutPaid = await oneMessage(b.id, 'payout_paid', () =>
    payOutThroughApi(t.db, finance, loan.id, 5_000_000, ref()),
  );
  const pay = async (pesos: string) =>
    ok(201)(
      await finance.post(`/api/staff/loans/${loan.id}/repayments`, {
        amount: pesos,
        receivedOn: today(),
        channel: 'cash',
        reference: ref(),
      }),
    );
  texts.received = await oneMessage(b.id, 'payment_received', () => pay('5000.00'));
  const payment = await t.db
    .selectFrom('repayments')
    .select('id')
    .where('application_id', '=', loan.id)
    .executeTakeFirstOrThrow();
  texts.reversed = await oneMessage(b.id, 'payment_reversed', async () =>
    ok(200)(await finance.post(`/api/staff/repayments/${payment.id}/reverse`, { reason: 'Bounced cheque' })),
  );
  const { position } = (await finance.get(`/api/staff/loans/${loan.id}/ledger`)).body as {
    position: { payoffMinor: number };
  };
  // ₱100 more than the payoff: the loan closes, the rest is held for the borrower.
  texts.closed = await oneMessage(b.id, 'loan_closed', () =>
    pay(((position.payoffMinor + 10_000) / 100).toFixed(2)),
  );
  // The ₱100 held is sent back: money moved, so the borrower hears of it.
  const refundReference = ref();
  texts.refunded = await oneMessage(b.id, 'credit_refunded', async () =>
    ok(201)(
      await finance.post(`/api/staff/loans/${loan.id}/refunds`, {
        amount: '100',
        reference: refundReference,
      }),
    ),
  );

  const form = multipartBody({ category: 'fees_and_charges', text: 'A fee I did not expect.' }, []);
  const filed = ok(201)(
    await b.agent.request('POST', '/api/complaints', {
      raw: form.payload,
      headers: { 'content-type': form.contentType },
    }),
  );
  texts.complaint = await oneMessage(b.id, 'complaint_reply', async () =>
    ok(200)(await officer.post(`/api/staff/complaints/${filed.body.id}/replies`, { message: 'Checking.' })),
  );
  return { texts, loan, payoffMinor: position.payoffMinor, reference: filed.body.reference as string };
}

describe('a message for every change that matters to the borrower', () => {
  it('queues exactly one SMS per change in English, and delivers each once in the day', async () => {
    const b = await borrower('en');
    const { texts, loan, reference } = await everyChange(b);
    expect(texts.approved).toMatch(
      /^Hiram: loan HL-\d\d-\d+ is approved for PHP 100,000\.00\. Withdraw it in the app/,
    );
    expect(texts.declined).toMatch(/was declined\. Reason: Income too low$/);
    expect(texts.proposed).toContain('Review them in the app');
    expect(texts.proposed).toContain('a code we send you');
    expect(texts.payoutFailed).toBe(
      `Hiram: your payout of PHP 20,000.00 for loan ${loan.loanNumber} failed: Account closed`,
    );
    expect(texts.payoutPaid).toBe(
      `Hiram: we sent PHP 50,000.00 for loan ${loan.loanNumber} to your account ending 4567.`,
    );
    expect(texts.received).toMatch(
      new RegExp(
        `^Hiram: we received PHP 5,000\\.00 for loan ${loan.loanNumber}\\. Still owed: PHP [\\d,]+\\.\\d\\d\\.$`,
      ),
    );
    expect(texts.reversed).toBe(
      `Hiram: your payment of PHP 5,000.00 for loan ${loan.loanNumber} was reversed. Reason: Bounced cheque`,
    );
    expect(texts.closed).toContain(`Loan ${loan.loanNumber} is paid in full and closed.`);
    expect(texts.closed).toContain('We hold PHP 100.00 paid above the payoff for you and will refund it.');
    expect(texts.refunded).toMatch(
      new RegExp(
        `^Hiram: we sent back PHP 100\\.00 you paid above loan ${loan.loanNumber}\\. Transfer reference: \\S+$`,
      ),
    );
    expect(texts.complaint).toBe(smsCatalogue.en.complaintReply.replace('{reference}', reference));

    // Nothing is sent before the sender runs; then each goes once, even when the sender runs again.
    expect(await outbox(b.phone)).toEqual([]);
    expect(await deliverAt(manila(today(), '10:00'))).toBeGreaterThanOrEqual(10);
    await deliverAt(manila(today(), '10:01'));
    const sent = await outbox(b.phone);
    expect(sent.map((m) => m.text).sort()).toEqual(Object.values(texts).sort());
    expect(sent.filter((m) => m.purpose === 'complaint_update')).toHaveLength(1);
    expect((await queued(b.id)).every((row) => row.status === 'sent')).toBe(true);
  });

  it('writes every one in Khmer for a Khmer reader', async () => {
    const b = await borrower('km');
    const { texts, reference } = await everyChange(b);
    for (const [name, text] of Object.entries(texts)) {
      expect(text, name).toMatch(/^Hiram៖/);
      expect(text, name).not.toMatch(/\b(your|we|loan|payment|received|reason|app)\b/i);
    }
    expect(texts.payoutPaid).toContain('50,000.00₱');
    expect(texts.payoutPaid).toContain('4567');
    expect(texts.declined).toContain('Income too low');
    expect(texts.complaint).toBe(smsCatalogue.km.complaintReply.replace('{reference}', reference));
  });
});

describe('quiet hours', () => {
  it('holds a change made at 23:00 in Manila until 06:00, then sends it once', async () => {
    const b = await borrower('fil');
    const app = await application(b.id);
    const day = today();
    const next = todayIn('Asia/Manila', new Date(manila(day, '12:00').getTime() + 86_400_000));
    clock.at = manila(day, '23:00');
    try {
      ok(200)(await officer.post(`/api/staff/applications/${app.id}/approve`, { creditScore: 600 }));
    } finally {
      clock.at = null;
    }
    expect(await queued(b.id)).toHaveLength(1);
    // Whatever else is waiting (other tests' messages) waits too.
    expect(await deliverAt(manila(day, '23:00'))).toBe(0);
    expect(await deliverAt(manila(next, '03:00'))).toBe(0);
    expect(await deliverAt(manila(next, '05:59'))).toBe(0);
    expect(await outbox(b.phone)).toEqual([]);
    expect(await deliverAt(manila(next, '06:00'))).toBeGreaterThanOrEqual(1);
    const sent = await outbox(b.phone);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('aprubado ang pautang');
    expect(await deliverAt(manila(next, '06:05'))).toBe(0);
    expect(await outbox(b.phone)).toHaveLength(1);
  });
});

describe('exactly once', () => {
  it('queues nothing for a change refused or rolled back', async () => {
    const b = await borrower('zh');
    const app = await application(b.id);
    ok(200)(await officer.post(`/api/staff/applications/${app.id}/reject`, { reason: 'Incomplete' }));
    expect(await queued(b.id)).toHaveLength(1);
    // A refused decision (already decided) changes nothing and queues nothing.
    ok(409)(await officer.post(`/api/staff/applications/${app.id}/reject`, { reason: 'Again' }));
    ok(409)(await officer.post(`/api/staff/applications/${app.id}/approve`, { creditScore: 600 }));
    expect(await queued(b.id)).toHaveLength(1);

    // A change that fails after its message was written: the approval and the message roll back together.
    const other = await application(b.id);
    await sql`
      create function fail_after_message() returns trigger language plpgsql as $$
      begin raise exception 'simulated failure after the message'; end $$`.execute(t.db);
    await sql`
      create trigger fail_after_message after insert on loan_reminders
      for each row execute function fail_after_message()`.execute(t.db);
    try {
      const refused = await officer.post(`/api/staff/applications/${other.id}/approve`, { creditScore: 600 });
      expect(refused.status).toBe(500);
    } finally {
      await sql`drop trigger fail_after_message on loan_reminders`.execute(t.db);
      await sql`drop function fail_after_message()`.execute(t.db);
    }
    expect(await storedStatus(t.db, 'applications', other.id)).toBe('pending');
    expect(await queued(b.id)).toHaveLength(1);
  });

  it('delivers once with two senders at once (two instances), and once more only with the same key after a crash', async () => {
    const b = await borrower('en');
    for (let i = 0; i < 3; i += 1) {
      const app = await application(b.id);
      ok(200)(await officer.post(`/api/staff/applications/${app.id}/reject`, { reason: `No ${i}` }));
    }
    const gateway: SmsMessage[] = [];
    // Each instance has its own notifier in front of the same gateway.
    const instance = (): Notifier => ({
      send: async (message) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        gateway.push(message);
      },
    });
    const noon = manila(today(), '12:00');
    const at = { now: () => noon };
    const [a, c] = await Promise.all([
      deliverSmsOutbox({ ...t.deps, clock: at, notifier: instance() }),
      deliverSmsOutbox({ ...t.deps, clock: at, notifier: instance() }),
    ]);
    const mine = gateway.filter((m) => m.phone === b.phone);
    expect(mine).toHaveLength(3);
    expect(a + c).toBeGreaterThanOrEqual(3);
    const rows = await queued(b.id);
    expect(new Set(mine.map((m) => m.idempotencyKey))).toEqual(new Set(rows.map((r) => r.id)));
    expect(mine.every((m) => m.purpose === 'loan_update')).toBe(true);

    // An instance died after the gateway took a message and before marking it sent: after ten minutes another
    // sends it again with the same idempotency key (the gateway drops the copy), and never a third time.
    const crashed = rows[0]!;
    await t.db
      .updateTable('loan_reminders')
      .set({ status: 'sending', sent_at: null, claimed_at: new Date(noon.getTime() - 11 * 60_000) })
      .where('id', '=', crashed.id)
      .execute();
    gateway.length = 0;
    await deliverSmsOutbox({ ...t.deps, clock: at, notifier: instance() });
    await deliverSmsOutbox({ ...t.deps, clock: at, notifier: instance() });
    expect(gateway.filter((m) => m.phone === b.phone).map((m) => m.idempotencyKey)).toEqual([crashed.id]);
  });
  it('delivers each message exactly once when 200 senders run at once', async () => {
    const people = [await borrower('en'), await borrower('km')];
    for (const b of people) {
      for (let i = 0; i < 20; i += 1) {
        const app = await application(b.id);
        ok(200)(await officer.post(`/api/staff/applications/${app.id}/reject`, { reason: `Not now ${i}` }));
      }
    }
    const rows = (await Promise.all(people.map((b) => queued(b.id)))).flat();
    expect(rows).toHaveLength(40);
    const sends = new Map<string, number>();
    const gateway: Notifier = {
      send: async (message) => {
        // Let the other senders interleave between the claim and the mark.
        await new Promise((resolve) => setTimeout(resolve, 1));
        sends.set(message.idempotencyKey!, (sends.get(message.idempotencyKey!) ?? 0) + 1);
      },
    };
    const at = { now: () => manila(today(), '12:00') };
    const counts = await Promise.all(
      Array.from({ length: 200 }, () => deliverSmsOutbox({ ...t.deps, clock: at, notifier: gateway })),
    );
    for (const row of rows) expect(sends.get(row.id), `sends of ${row.kind} ${row.id}`).toBe(1);
    // Every send anywhere (other tests' rows too) went once, and the senders' own counts agree with the gateway.
    expect([...sends.values()].every((n) => n === 1)).toBe(true);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(sends.size);
    const after = (await Promise.all(people.map((b) => queued(b.id)))).flat();
    expect(after.every((row) => row.status === 'sent')).toBe(true);
  });
});

describe('the borrower’s choice', () => {
  it('stops the optional messages but never those about money or something to act on', async () => {
    const b = await borrower('en');
    const someoneElse = await borrower('en');
    expect((await b.agent.get('/api/account/sms-preferences')).body).toEqual({ optionalSms: true });
    const off = ok(200)(await b.agent.post('/api/account/sms-preferences', { optionalSms: false }));
    expect(off.body).toEqual({ optionalSms: false });
    expect((await b.agent.get('/api/account/sms-preferences')).body).toEqual({ optionalSms: false });
    // Only their own: another borrower's setting is untouched; a bad body changes nothing.
    expect((await someoneElse.agent.get('/api/account/sms-preferences')).body).toEqual({ optionalSms: true });
    expect((await b.agent.post('/api/account/sms-preferences', { optionalSms: 'yes' })).status).toBe(400);
    expect((await t.agent().post('/api/account/sms-preferences', { optionalSms: true })).status).toBe(401);

    // A decline and a complaint reply are optional: nothing queued. An approval (to withdraw) and a payout
    // (money) still are.
    const declined = await application(b.id);
    ok(200)(await officer.post(`/api/staff/applications/${declined.id}/reject`, { reason: 'No' }));
    const form = multipartBody({ category: 'fees_and_charges', text: 'A fee I did not expect.' }, []);
    const filed = ok(201)(
      await b.agent.request('POST', '/api/complaints', {
        raw: form.payload,
        headers: { 'content-type': form.contentType },
      }),
    );
    const reply = async () =>
      ok(200)(await officer.post(`/api/staff/complaints/${filed.body.id}/replies`, { message: 'Checking.' }));
    await reply();
    expect(await queued(b.id)).toEqual([]);
    const approved = await application(b.id);
    ok(200)(await officer.post(`/api/staff/applications/${approved.id}/approve`, { creditScore: 600 }));
    await payOutThroughApi(t.db, finance, approved.id, 1_000_000, ref());
    expect((await queued(b.id)).map((row) => row.kind)).toEqual(['application_approved', 'payout_paid']);

    // Turned on again: the optional ones come back.
    ok(200)(await b.agent.post('/api/account/sms-preferences', { optionalSms: true }));
    await reply();
    expect((await queued(b.id)).map((row) => row.kind)).toContain('complaint_reply');
  });
});
