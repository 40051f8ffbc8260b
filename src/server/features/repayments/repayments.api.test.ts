import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { addDays, addMonthsClamped } from '../../../domain/loan/calendar';
import { deriveLoanPosition } from '../../../domain/loan/repayments';
import { loadLoanRecords } from '../../loans/loan-position';
import {
  seedApplication,
  seedBorrowerWithApplication,
  seedPaidDisbursement,
  seedTerms,
  storedStatus,
} from '../../test-support/seed';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../../test-support/test-app';
import { sendWithdrawalCode } from '../../test-support/withdrawal';

/**
 * Finance records repayments and reverses them (issue #10). The app runs on a test clock, moved forward to
 * see instalments fall due and overdue; payouts are marked paid at the real time (their day is the first
 * "today" of the clock).
 */
const clock = shiftedClock();
let t: TestApp;
let finance: Agent;
let finance2: Agent;
let officer: Agent;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({ clock });
  finance = await t.signInStaff('finance');
  finance2 = await t.signInStaff('finance');
  officer = await t.signInStaff('officer');
  admin = await t.signInStaff('admin');
});
afterAll(() => t.close());
afterEach(() => {
  clock.days = 0;
});

const today = () => todayIn('Asia/Manila', clock.now());
let references = 0;
const ref = () => `REF-${++references}`;

/** A borrower with an approved ₱100,000 loan over 12 months at 2 %, paid out in full today (unless not). */
async function loan(options: { paidOutMinor?: number | null; status?: 'approved' | 'pending' } = {}) {
  const { borrower: b, id } = await seedBorrowerWithApplication(t, { status: options.status ?? 'approved' });
  const paid = options.paidOutMinor === undefined ? 10_000_000 : options.paidOutMinor;
  if (paid !== null) {
    await seedPaidDisbursement(t.db, id, { amountMinor: paid });
  }
  return { id, borrower: await t.loginAs(b.phone, b.password) };
}

const record = (agent: Agent, id: string, body: Record<string, unknown>) =>
  agent.post(`/api/staff/loans/${id}/repayments`, {
    amount: '1000',
    receivedOn: today(),
    channel: 'gcash',
    reference: ref(),
    ...body,
  });

async function counts(id: string) {
  const [repayments, audit, events] = await Promise.all([
    t.db.selectFrom('repayments').select('id').where('application_id', '=', id).execute(),
    t.db.selectFrom('audit_events').select('id').where('loan_id', '=', id).execute(),
    t.db.selectFrom('borrower_events').select('id').where('application_id', '=', id).execute(),
  ]);
  return { repayments: repayments.length, audit: audit.length, events: events.length };
}

describe('recording a repayment', () => {
  it('records it, audited and told to the borrower, and the ledger shows where it went', async () => {
    const { id, borrower } = await loan();
    const response = await record(finance, id, { amount: '1,234.56', reference: 'GC-1001' });
    expect(response.status, response.text).toBe(201);
    expect(response.body.loanStatus).toBe('approved');
    const row = await t.db
      .selectFrom('repayments')
      .selectAll()
      .where('id', '=', response.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ amount: 123_456, channel: 'gcash', reference: 'GC-1001', source: 'staff' });
    const audit = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', response.body.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['repayment.record']);
    expect(audit[0]!.changes).toMatchObject({ amountMinor: { before: null, after: 123_456 } });

    const ledger = await officer.get(`/api/staff/loans/${id}/ledger`);
    expect(ledger.status, ledger.text).toBe(200);
    expect(ledger.body.position.schedule).toHaveLength(12);
    expect(ledger.body.position.schedule[0].dueDate).toBe(addMonthsClamped(today(), 1));
    expect(ledger.body.repayments).toEqual([
      expect.objectContaining({
        amountMinor: 123_456,
        reference: 'GC-1001',
        reversal: null,
        // Paid before the first due date: held towards instalment 1.
        allocation: expect.objectContaining({ advanceMinor: 123_456, overpaymentMinor: 0 }),
      }),
    ]);
    expect(ledger.body.position.payoffMinor).toBe(10_000_000 - 123_456);

    const wallet = await borrower.get('/api/wallet');
    expect(wallet.body.schedule).toHaveLength(12);
    expect(wallet.body.repayment.position.nextPayment).toMatchObject({
      number: 1,
      dueDate: addMonthsClamped(today(), 1),
      amountMinor: 945_596 - 123_456,
    });
    expect(wallet.body.repayment.repayments).toEqual([
      expect.objectContaining({ amountMinor: 123_456, reference: 'GC-1001', reversed: false }),
    ]);
    expect(wallet.body.history[0]).toMatchObject({
      kind: 'repayment_received',
      data: { amountMinor: 123_456 },
    });
  });

  it('refuses a reference already used on the same channel, and accepts it on another channel', async () => {
    const { id } = await loan();
    expect((await record(finance, id, { reference: 'DUP-1' })).status).toBe(201);
    const before = await counts(id);
    const again = await record(finance, id, { reference: 'DUP-1', amount: '500' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('REPAYMENT_REFERENCE_USED');
    expect(await counts(id)).toEqual(before);
    // On another loan too: one payment is one record.
    const other = await loan();
    expect((await record(finance, other.id, { reference: 'DUP-1' })).body.error.code).toBe(
      'REPAYMENT_REFERENCE_USED',
    );
    expect((await record(finance, id, { reference: 'DUP-1', channel: 'cash' })).status).toBe(201);
  });

  it('refuses a date in the future and before the first payout, by the app clock', async () => {
    const { id } = await loan();
    const before = await counts(id);
    const future = await record(finance, id, { receivedOn: addDays(today(), 1) });
    expect(future.status).toBe(400);
    expect(future.body.error.code).toBe('REPAYMENT_DATE_IN_FUTURE');
    const early = await record(finance, id, { receivedOn: addDays(today(), -1) });
    expect(early.body.error).toMatchObject({
      code: 'REPAYMENT_DATE_BEFORE_PAYOUT',
      params: { date: today() },
    });
    expect(await counts(id)).toEqual(before);
    // Ten days later by the clock, a date five days after the payout is in the past.
    const payoutDay = today();
    clock.days = 10;
    expect((await record(finance, id, { receivedOn: addDays(payoutDay, 5) })).status).toBe(201);
  });

  it.each([['0'], ['-5'], ['1.234'], ['abc'], [''], [0]])('refuses the amount %j', async (amount) => {
    const { id } = await loan();
    const response = await record(finance, id, { amount });
    expect(response.status).toBe(400);
    expect(response.body.error.fields.amount.code).toBe('REPAYMENT_AMOUNT_INVALID');
  });

  it('refuses an unknown channel, a missing reference and a bad date', async () => {
    const { id } = await loan();
    expect((await record(finance, id, { channel: 'paypal' })).body.error.code).toBe(
      'PAYMENT_CHANNEL_INVALID',
    );
    expect((await record(finance, id, { reference: '  ' })).body.error.fields.reference.code).toBe(
      'REFERENCE_REQUIRED',
    );
    expect((await record(finance, id, { receivedOn: '2026-02-30' })).body.error.fields.receivedOn.code).toBe(
      'REPAYMENT_DATE_INVALID',
    );
    expect((await counts(id)).repayments).toBe(0);
  });

  it('takes repayments only for a running loan with a paid payout', async () => {
    const notPaid = await loan({ paidOutMinor: null });
    expect((await record(finance, notPaid.id, {})).body.error.code).toBe('LOAN_NOT_REPAYING');
    const pending = await loan({ status: 'pending', paidOutMinor: null });
    expect((await record(finance, pending.id, {})).status).toBe(409);
    expect((await record(finance, '00000000-0000-4000-8000-000000000000', {})).status).toBe(404);
    // A closed (or rejected) loan takes no money even with a payout; a loan on hold still does.
    const closed = await loan();
    await t.db.updateTable('applications').set({ status: 'closed' }).where('id', '=', closed.id).execute();
    expect((await record(finance, closed.id, {})).body.error.code).toBe('LOAN_NOT_REPAYING');
    const held = await loan();
    await t.db.updateTable('applications').set({ status: 'on_hold' }).where('id', '=', held.id).execute();
    expect((await record(finance, held.id, {})).status).toBe(201);
  });

  it('is for finance and admins only', async () => {
    const { id, borrower } = await loan();
    expect((await record(officer, id, {})).status).toBe(403);
    expect((await record(borrower, id, {})).status).toBe(403);
    expect((await record(admin, id, {})).status).toBe(201);
  });
});

describe('money received above the payoff (issue #31)', () => {
  it('is recorded, never refused: the loan closes and the rest is held for the borrower as credit', async () => {
    const { id, borrower } = await loan();
    const over = await record(finance, id, { amount: '100100', reference: 'OVER-1' });
    expect(over.status, over.text).toBe(201);
    expect(over.body.loanStatus).toBe('closed');
    const ledger = (await finance.get(`/api/staff/loans/${id}/ledger`)).body;
    expect(ledger.position).toMatchObject({ payoffMinor: 0, creditMinor: 10_000, refundedMinor: 0 });
    expect(ledger.repayments[0].allocation).toMatchObject({ overpaymentMinor: 10_000 });
    const audit = await t.db
      .selectFrom('audit_events')
      .select('changes')
      .where('loan_id', '=', id)
      .where('action', '=', 'repayment.record')
      .executeTakeFirstOrThrow();
    expect(audit.changes).toMatchObject({ creditMinor: { after: 10_000 } });
    const wallet = (await borrower.get('/api/wallet')).body;
    expect(wallet.repayment.position.creditMinor).toBe(10_000);
    expect(wallet.history.find((e: { kind: string }) => e.kind === 'repayment_received').data).toMatchObject({
      creditMinor: 10_000,
    });
  });

  it('finance refunds it with a reference, at most what is held, audited and told to the borrower', async () => {
    const { id, borrower } = await loan();
    expect((await record(finance, id, { amount: '100250', reference: 'OVER-2' })).status).toBe(201);
    const refunds = `/api/staff/loans/${id}/refunds`;
    expect((await officer.post(refunds, { amount: '1', reference: 'X' })).status).toBe(403);
    expect((await borrower.post(refunds, { amount: '1', reference: 'X' })).status).toBe(403);
    const tooMuch = await finance.post(refunds, { amount: '250.01', reference: 'GC-REFUND-1' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toMatchObject({
      code: 'REFUND_EXCEEDS_CREDIT',
      params: { creditMinor: 25_000 },
    });
    expect(tooMuch.body.error.fields.amount.code).toBe('REFUND_EXCEEDS_CREDIT');
    const noReference = await finance.post(refunds, { amount: '100', reference: ' ' });
    expect(noReference.status).toBe(400);

    const part = await finance.post(refunds, { amount: '100', reference: 'GC-REFUND-1' });
    expect(part.status, part.text).toBe(201);
    expect(part.body.creditMinor).toBe(15_000);
    expect((await finance.post(refunds, { amount: '1', reference: 'GC-REFUND-1' })).body.error.code).toBe(
      'REPAYMENT_REFERENCE_USED',
    );
    // Two refunds of the rest at once: one is recorded, the other finds nothing left to send.
    const both = await Promise.all([
      finance.post(refunds, { amount: '150', reference: 'GC-REFUND-2' }),
      admin.post(refunds, { amount: '150', reference: 'GC-REFUND-3' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 400]);
    const position = (await finance.get(`/api/staff/loans/${id}/ledger`)).body.position;
    expect(position).toMatchObject({ creditMinor: 0, refundedMinor: 25_000, payoffMinor: 0 });
    const actions = await t.db
      .selectFrom('audit_events')
      .select('action')
      .where('loan_id', '=', id)
      .where('action', '=', 'credit.refund')
      .execute();
    expect(actions).toHaveLength(2);
    const told = (await borrower.get('/api/wallet')).body.history.filter(
      (e: { kind: string }) => e.kind === 'credit_refunded',
    );
    expect(told.map((e: { data: { amountMinor: number } }) => e.data.amountMinor).sort()).toEqual([
      10_000, 15_000,
    ]);
    // The borrower's wallet lists each refund with its reference and the day (issue #32).
    const wallet = (await borrower.get('/api/wallet')).body;
    expect(wallet.repayment.refunds).toHaveLength(2);
    expect(wallet.repayment.refunds[0]).toMatchObject({
      amountMinor: 10_000,
      reference: 'GC-REFUND-1',
      refundedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(wallet.repayment.paidInFullOn).toBe(wallet.repayment.repayments[0].receivedOn);
    // The statement shows the refunds and still balances: nothing owed, nothing held.
    const statement = await finance.get(`/api/staff/loans/${id}/statement.pdf`);
    expect(statement.status).toBe(200);
  });

  it('a refund cannot be edited or deleted', async () => {
    const { id } = await loan();
    expect((await record(finance, id, { amount: '100010', reference: 'OVER-3' })).status).toBe(201);
    expect(
      (await finance.post(`/api/staff/loans/${id}/refunds`, { amount: '10', reference: 'R-1' })).status,
    ).toBe(201);
    await expect(
      sql`update credit_refunds set amount = 1 where application_id = ${id}`.execute(t.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from credit_refunds where application_id = ${id}`.execute(t.db)).rejects.toThrow(
      /append-only/,
    );
  });
});

describe('payoff, closure, reversal and reopening', () => {
  it('the exact payoff closes the loan in the same transaction', async () => {
    const { id, borrower } = await loan();
    // On the payout day nothing has accrued: the payoff is the principal.
    const paid = await record(finance, id, { amount: '100000', reference: 'PAYOFF-1' });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.loanStatus).toBe('closed');
    const row = await t.db
      .selectFrom('applications')
      .select(['status', 'closed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const repayment = await t.db
      .selectFrom('repayments')
      .select('created_at')
      .where('id', '=', paid.body.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('closed');
    // Same transaction: the closure carries the repayment's own timestamp.
    expect(row.closed_at?.toISOString()).toBe(repayment.created_at.toISOString());
    const actions = await t.db
      .selectFrom('audit_events')
      .select('action')
      .where('loan_id', '=', id)
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['repayment.record', 'loan.close']);
    const wallet = await borrower.get('/api/wallet');
    expect(wallet.body.application.status).toBe('closed');
    expect(wallet.body.repayment.position.payoffMinor).toBe(0);
    expect(wallet.body.repayment.closedAt).toBe(row.closed_at?.toISOString());
    expect(wallet.body.history.map((e: { kind: string }) => e.kind).slice(0, 2)).toEqual([
      'loan_closed',
      'repayment_received',
    ]);
    // A closed loan takes no more money.
    expect((await record(finance, id, { amount: '1' })).body.error.code).toBe('LOAN_NOT_REPAYING');
  });

  it('a reversal with a reason reopens a closed loan; reversing twice is refused', async () => {
    const { id, borrower } = await loan();
    const paid = await record(finance, id, { amount: '100000' });
    expect(paid.body.loanStatus).toBe('closed');

    const noReason = await finance.post(`/api/staff/repayments/${paid.body.id}/reverse`, { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.code).toBe('REASON_REQUIRED');
    expect(
      (await officer.post(`/api/staff/repayments/${paid.body.id}/reverse`, { reason: 'x' })).status,
    ).toBe(403);

    const reversed = await finance.post(`/api/staff/repayments/${paid.body.id}/reverse`, {
      reason: 'Bounced cheque',
    });
    expect(reversed.status, reversed.text).toBe(200);
    expect(reversed.body.loanStatus).toBe('approved');
    const row = await t.db
      .selectFrom('applications')
      .select(['status', 'closed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'approved', closed_at: null });
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['action', 'reason'])
      .where('loan_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'repayment.record', reason: null },
      { action: 'loan.close', reason: 'Paid in full' },
      { action: 'repayment.reverse', reason: 'Bounced cheque' },
      { action: 'loan.reopen', reason: 'Bounced cheque' },
    ]);
    const wallet = await borrower.get('/api/wallet');
    expect(wallet.body.application.status).toBe('approved');
    expect(wallet.body.repayment.position.payoffMinor).toBe(10_000_000);
    expect(wallet.body.history[0]).toMatchObject({ kind: 'loan_reopened', message: 'Bounced cheque' });
    const ledger = await finance.get(`/api/staff/loans/${id}/ledger`);
    expect(ledger.body.repayments[0]).toMatchObject({
      reversed: true,
      allocation: null,
      reversal: { reason: 'Bounced cheque' },
    });

    const before = await counts(id);
    const twice = await admin.post(`/api/staff/repayments/${paid.body.id}/reverse`, { reason: 'Again' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('REPAYMENT_ALREADY_REVERSED');
    expect(await counts(id)).toEqual(before);
    expect(
      (
        await finance.post('/api/staff/repayments/00000000-0000-4000-8000-000000000000/reverse', {
          reason: 'x',
        })
      ).status,
    ).toBe(404);
  });

  it('reversing a part payment keeps a running loan running', async () => {
    const { id } = await loan();
    const part = await record(finance, id, { amount: '500' });
    const reversed = await finance.post(`/api/staff/repayments/${part.body.id}/reverse`, { reason: 'Typo' });
    expect(reversed.body.loanStatus).toBe('approved');
    const ledger = await finance.get(`/api/staff/loans/${id}/ledger`);
    expect(ledger.body.position.payoffMinor).toBe(10_000_000);
  });

  it('refuses UPDATE and DELETE of repayments and reversals', async () => {
    const { id } = await loan();
    const part = await record(finance, id, { amount: '500' });
    await finance.post(`/api/staff/repayments/${part.body.id}/reverse`, { reason: 'Typo' });
    await expect(
      t.db.updateTable('repayments').set({ amount: 1 }).where('id', '=', part.body.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(t.db.deleteFrom('repayments').where('id', '=', part.body.id).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(
      t.db.deleteFrom('repayment_reversals').where('repayment_id', '=', part.body.id).execute(),
    ).rejects.toThrow(/append-only/);
  });
});

describe('overdue, by the test clock', () => {
  it('an instalment unpaid past its due date and grace is overdue with its days past due', async () => {
    const { id, borrower } = await loan();
    const due = addMonthsClamped(today(), 1);
    const payoutDay = today();
    // Move the clock to 10 days after the first due date.
    while (today() < addDays(due, 10)) clock.days += 1;
    const ledger = await finance.get(`/api/staff/loans/${id}/ledger`);
    expect(ledger.body.position.asOf).toBe(addDays(due, 10));
    expect(ledger.body.position.schedule[0]).toMatchObject({ status: 'overdue', daysPastDue: 10 });
    expect(ledger.body.position.schedule[1].status).toBe('upcoming');
    expect(ledger.body.position).toMatchObject({
      daysPastDue: 10,
      overdueMinor: 945_596,
      lateChargesDueMinor: 0,
    });
    const wallet = await borrower.get('/api/wallet');
    expect(wallet.body.repayment.position.schedule[0]).toMatchObject({ status: 'overdue', daysPastDue: 10 });
    expect(wallet.body.repayment.position.startDate).toBe(payoutDay);

    // Within the grace days it is due, not overdue.
    clock.days = 0;
    while (today() < addDays(due, 2)) clock.days += 1;
    const inGrace = await finance.get(`/api/staff/loans/${id}/ledger`);
    expect(inGrace.body.position.schedule[0]).toMatchObject({ status: 'due', daysPastDue: 2 });

    // Paying the instalment (dated on its due date) makes it paid.
    const paid = await record(finance, id, { amount: '9455.96', receivedOn: due });
    expect(paid.status, paid.text).toBe(201);
    const after = await finance.get(`/api/staff/loans/${id}/ledger`);
    expect(after.body.position.schedule[0].status).toBe('paid');
    expect(after.body.position.daysPastDue).toBe(0);
  });

  it("charges the loan's own late charge on an overdue instalment", async () => {
    const lateClock = shiftedClock();
    const late = await createTestApp({ clock: lateClock });
    try {
      const f = await late.createUser({ role: 'finance' });
      const agent = await late.loginAs(f.user.username!, f.password);
      const b = await late.signUpBorrower();
      const id = await seedApplication(late.db, {
        borrowerId: b.user.id,
        phone: b.phone,
        status: 'approved',
        terms: { lateChargeMonthlyBp: 500 },
      });
      await seedPaidDisbursement(late.db, id, { reference: 'P-1' });
      const lateToday = () => todayIn('Asia/Manila', lateClock.now());
      const due = addMonthsClamped(lateToday(), 1);
      while (lateToday() < addDays(due, 10)) lateClock.days += 1;
      const ledger = await agent.get(`/api/staff/loans/${id}/ledger`);
      const position = ledger.body.position;
      expect(position.lateChargeMonthlyBp).toBe(500);
      expect(position.schedule[0]).toMatchObject({ status: 'overdue', daysPastDue: 10 });
      // 7 days after the 3 grace days at 5 %/31 a day on ₱9,455.96: ₱106.76.
      expect(position.lateChargesDueMinor).toBe(10_676);
      const { records } = await loadLoanRecords(
        late.db,
        { id, term_months: 12, terms: seedTerms({ lateChargeMonthlyBp: 500 }) },
        'Asia/Manila',
      );
      expect(position.payoffMinor).toBe(deriveLoanPosition(records, lateToday()).payoffMinor);
    } finally {
      await late.close();
    }
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('concurrent recording (PostgreSQL)', () => {
  it('two finance users entering the same payment at once make one record', async () => {
    const { id } = await loan();
    const body = { amount: '2500', receivedOn: today(), channel: 'gcash', reference: 'RACE-1' };
    for (let round = 0; round < 3; round++) {
      const reference = `RACE-${round}`;
      const responses = await Promise.all([
        finance.post(`/api/staff/loans/${id}/repayments`, { ...body, reference }),
        finance2.post(`/api/staff/loans/${id}/repayments`, { ...body, reference }),
      ]);
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(responses.find((r) => r.status === 409)?.body.error.code).toBe('REPAYMENT_REFERENCE_USED');
    }
    const rows = await t.db
      .selectFrom('repayments')
      .select('reference')
      .where('application_id', '=', id)
      .execute();
    expect(rows.map((r) => r.reference).sort()).toEqual(['RACE-0', 'RACE-1', 'RACE-2']);
  });

  it('the same payment entered at once on two loans is one record', async () => {
    const [a, b] = await Promise.all([loan(), loan()]);
    const body = { amount: '2500', receivedOn: today(), channel: 'gcash', reference: 'RACE-TWO-LOANS' };
    const responses = await Promise.all([
      finance.post(`/api/staff/loans/${a.id}/repayments`, body),
      finance2.post(`/api/staff/loans/${b.id}/repayments`, body),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await t.db
      .selectFrom('repayments')
      .select('id')
      .where('reference', '=', 'RACE-TWO-LOANS')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('two payments racing to pay off a loan: only one is taken', async () => {
    const { id } = await loan();
    const responses = await Promise.all([
      finance.post(`/api/staff/loans/${id}/repayments`, {
        amount: '100000',
        receivedOn: today(),
        channel: 'gcash',
        reference: 'PO-A',
      }),
      finance2.post(`/api/staff/loans/${id}/repayments`, {
        amount: '100000',
        receivedOn: today(),
        channel: 'cash',
        reference: 'PO-B',
      }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(responses.find((r) => r.status === 409)?.body.error.code).toBe('LOAN_NOT_REPAYING');
  });
});

describe('no money out on or after the last due date', () => {
  it('refuses a withdrawal and marking a payout paid once the last instalment is due', async () => {
    // ₱100,000 approved, ₱10,000 paid out today: the last of 12 instalments is due in 12 months.
    const { id, borrower } = await loan({ paidOutMinor: 1_000_000 });
    const lastDue = addMonthsClamped(today(), 12);
    const requested = await t.db
      .insertInto('disbursements')
      .values({
        application_id: id,
        amount: 500_000,
        bank_name: 'GCash',
        account_number: '09171234567',
        code_verified: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    while (today() < addDays(lastDue, -1)) clock.days += 1;
    expect((await sendWithdrawalCode(borrower, 1000)).status).toBe(200);

    clock.days += 1;
    expect(today()).toBe(lastDue);
    const withdrawal = await borrower.post('/api/wallet/withdrawal-code', { amount: 1000 });
    expect(withdrawal.status).toBe(409);
    expect(withdrawal.body.error).toMatchObject({
      code: 'WITHDRAWAL_PERIOD_ENDED',
      params: { date: lastDue },
    });
    const paid = await finance.post(`/api/staff/disbursements/${requested.id}/paid`, { reference: 'LATE-1' });
    expect(paid.status).toBe(409);
    expect(paid.body.error.code).toBe('PAYOUT_AFTER_LAST_DUE');
    expect(await storedStatus(t.db, 'disbursements', requested.id)).toBe('requested');
    // The wallet still answers: the records never hold a payout it cannot amortise.
    expect((await borrower.get('/api/wallet')).status).toBe(200);
  });
});
