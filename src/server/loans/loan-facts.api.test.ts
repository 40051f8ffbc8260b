import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../domain/date-text';
import { addDays, addMonthsClamped } from '../../domain/loan/calendar';
import { deriveLoanPosition } from '../../domain/loan/repayments';
import { deliverPaymentWebhook } from '../test-support/payment-webhook';
import { loanNumberOf, payOutThroughApi, seedApplication, seedPaidDisbursement } from '../test-support/seed';
import { acceptProposedTerms } from '../test-support/terms';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../test-support/test-app';
import { outstandingPrincipalSql } from './loan-facts-sql';
import { loadLoanRecords } from './loan-position';
import { backfillLoanFacts } from './refresh-loan-facts';

/**
 * The stored loan facts (migration 008, docs/decisions/012) after every kind of money event, and on later days
 * without events: what SQL reads from them is what a full replay of the loan's records says.
 */
const clock = shiftedClock();
const secret = 'test-webhook-secret-0123456789-abcdefghijklmnop';
let t: TestApp;
let finance: Agent;

beforeAll(async () => {
  t = await createTestApp({ clock, config: { paymentsWebhook: { secret, channel: 'gcash' } } });
  finance = await t.signInStaff('finance');
});
afterAll(() => t.close());
afterEach(() => {
  clock.days = 0;
});

const today = () => todayIn('Asia/Manila', clock.now());
let references = 0;
const ref = () => `FACTS-${++references}`;

/** An approved ₱100,000 loan over 12 months at 2 %, with a payout of `amountMinor` marked paid by finance. */
async function paidOutLoan(amountMinor = 10_000_000) {
  const b = await t.createUser({ role: 'borrower' });
  const id = await seedApplication(t.db, { borrowerId: b.user.id, phone: b.user.phone!, status: 'approved' });
  await payOut(id, amountMinor);
  return id;
}

const payOut = (loanId: string, amountMinor: number) =>
  payOutThroughApi(t.db, finance, loanId, amountMinor, ref());

const record = async (id: string, amountMinor: number, receivedOn = today()) => {
  const response = await finance.post(`/api/staff/loans/${id}/repayments`, {
    amount: (amountMinor / 100).toFixed(2),
    receivedOn,
    channel: 'cash',
    reference: ref(),
  });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; loanStatus: string };
};

async function stored(id: string, day = today()) {
  const row = await t.db
    .selectFrom('applications')
    .select([
      outstandingPrincipalSql(day).as('outstanding'),
      sql<string | null>`next_due_on::text`.as('next_due_on'),
      'next_due_minor',
      'unpaid_instalments',
      sql<string | null>`facts_as_of::text`.as('facts_as_of'),
      'status',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    outstandingPrincipalMinor: Number(row.outstanding),
    nextDueOn: row.next_due_on,
    nextDueMinor: row.next_due_minor === null ? null : Number(row.next_due_minor),
    factsAsOf: row.facts_as_of,
    status: row.status,
    unpaid: row.unpaid_instalments,
  };
}

/** The stored facts, read by SQL for each day, against a replay of the records on that day. */
async function expectFactsTrue(id: string, laterDays: number[] = [1, 31, 62, 400]) {
  const loan = await t.db
    .selectFrom('applications')
    .select(['id', 'term_months', 'terms'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const { records } = await loadLoanRecords(t.db, loan, 'Asia/Manila');
  for (const day of [today(), ...laterDays.map((d) => addDays(today(), d))]) {
    const position = deriveLoanPosition(records, day);
    const { factsAsOf: _, status: __, unpaid, ...read } = await stored(id, day);
    expect(
      {
        ...read,
        dueUnpaidMinor: unpaid.filter(([on]) => on <= day).reduce((sum, [, minor]) => sum + minor, 0),
        upcomingDueOn: unpaid.find(([on]) => on > day)?.[0] ?? null,
      },
      day,
    ).toEqual({
      outstandingPrincipalMinor: position.outstandingPrincipalMinor,
      nextDueOn: position.nextPayment?.dueDate ?? null,
      nextDueMinor: position.nextPayment?.amountMinor ?? null,
      dueUnpaidMinor: position.principalDueMinor + position.interestDueMinor,
      upcomingDueOn: position.schedule.find((i) => !i.fixed && i.unpaidMinor > 0)?.dueDate ?? null,
    });
  }
}

describe('stored loan facts', () => {
  it('a payout marked paid starts them: all principal out, the first instalment next', async () => {
    const payDay = today();
    const id = await paidOutLoan();
    expect(await stored(id)).toEqual({
      outstandingPrincipalMinor: 10_000_000,
      nextDueOn: addMonthsClamped(payDay, 1),
      nextDueMinor: 945_596,
      factsAsOf: payDay,
      status: 'approved',
      // ₱9,455.96 a month, the last ₱9,455.97 with the rounding residue.
      unpaid: Array.from({ length: 12 }, (_, i) => [
        addMonthsClamped(payDay, i + 1),
        i === 11 ? 945_597 : 945_596,
      ]),
    });
    await expectFactsTrue(id);
  });

  it('a repayment paid ahead: the instalment is settled that day, its principal no longer owed', async () => {
    const payDay = today();
    const id = await paidOutLoan();
    clock.days = 5;
    await record(id, 945_596 + 100_000);
    // Instalment 1 is paid in full five days into its month: its interest ran only those days, and its
    // principal and ₱1,000 more (prepaid, lowering the rest) stop being owed at once (issue #31).
    const facts = await stored(id);
    expect(facts.nextDueOn).toBe(addMonthsClamped(payDay, 2));
    const firstPrincipal = 10_000_000 - 100_000 - facts.outstandingPrincipalMinor;
    expect(firstPrincipal).toBeGreaterThan(745_596);
    expect(firstPrincipal).toBeLessThan(945_596);
    // Nothing moves by itself on instalment 1's due date any more.
    expect((await stored(id, addMonthsClamped(payDay, 1))).outstandingPrincipalMinor).toBe(
      facts.outstandingPrincipalMinor,
    );
    await expectFactsTrue(id);
  });

  it('principal paid towards the next instalment that its interest needs is owed again from its due date', async () => {
    const payDay = today();
    const id = await paidOutLoan();
    // ₱5,000 on the payout day is all principal; on the due date the instalment's interest is paid from it.
    await record(id, 500_000);
    expect((await stored(id)).outstandingPrincipalMinor).toBe(9_500_000);
    const due = addMonthsClamped(payDay, 1);
    expect((await stored(id, addDays(due, -1))).outstandingPrincipalMinor).toBe(9_500_000);
    // 95,000 × 2 % = ₱1,900.00 of interest is owed again as principal from the due date.
    expect((await stored(id, due)).outstandingPrincipalMinor).toBe(9_500_000 + 190_000);
    await expectFactsTrue(id);
  });

  it('days pass without events: overdue since the first due date, facts unchanged and still true', async () => {
    const payDay = today();
    const id = await paidOutLoan();
    const before = await stored(id);
    clock.days = 100;
    expect(await stored(id)).toEqual(before);
    expect(before.nextDueOn).toBe(addMonthsClamped(payDay, 1));
    await expectFactsTrue(id, [1, 30]);
  });

  it('a reversal puts them back; a second payout re-amortises', async () => {
    const payDay = today();
    const id = await paidOutLoan(6_000_000);
    clock.days = 40;
    const { factsAsOf: _, ...unpaid } = await stored(id);
    const late = await record(id, 300_000, addMonthsClamped(payDay, 1));
    expect((await stored(id)).nextDueMinor).toBe((unpaid.nextDueMinor as number) - 300_000);
    await expectFactsTrue(id);
    const reversed = await finance.post(`/api/staff/repayments/${late.id}/reverse`, { reason: 'Bounced' });
    expect(reversed.status, reversed.text).toBe(200);
    expect(await stored(id)).toEqual({ ...unpaid, factsAsOf: today() });
    await expectFactsTrue(id);

    // A later payout (its day moved back, as if marked paid twenty days after the first).
    const loan = await t.db
      .selectFrom('disbursements')
      .select('id')
      .where('application_id', '=', id)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('disbursements')
      .set({ decided_at: sql<Date>`decided_at - interval '20 days'` })
      .where('id', '=', loan.id)
      .execute();
    clock.days = 10;
    const beforeSecond = await stored(id);
    await payOut(id, 4_000_000);
    const after = await stored(id);
    expect(after.outstandingPrincipalMinor).toBe(10_000_000);
    expect(after.nextDueMinor).not.toBe(beforeSecond.nextDueMinor);
    await expectFactsTrue(id);
  });

  it('closure and reopening: nothing owed once closed, owing again after the reversal', async () => {
    const id = await paidOutLoan();
    const payoff = await record(id, 10_000_000);
    expect(payoff.loanStatus).toBe('closed');
    expect(await stored(id)).toMatchObject({
      status: 'closed',
      outstandingPrincipalMinor: 0,
      nextDueOn: null,
      nextDueMinor: null,
    });
    const reopened = await finance.post(`/api/staff/repayments/${payoff.id}/reverse`, { reason: 'Bounced' });
    expect(reopened.body.loanStatus).toBe('approved');
    expect(await stored(id)).toMatchObject({ status: 'approved', outstandingPrincipalMinor: 10_000_000 });
    await expectFactsTrue(id);
  });

  it('a payment through the webhook, and an unapplied payment finance applies, refresh them too', async () => {
    const id = await paidOutLoan();
    const loanNumber = await loanNumberOf(t.db, id);
    const deliver = (paymentReference: string, amountMinor: number) =>
      deliverPaymentWebhook(t.agent(), secret, {
        reference: ref(),
        paymentReference,
        amountMinor,
        currency: 'PHP',
        receivedAt: new Date().toISOString(),
      });
    const applied = await deliver(loanNumber, 200_000);
    expect(applied.body.outcome, applied.text).toBe('applied');
    expect((await stored(id)).nextDueMinor).toBe(945_596 - 200_000);
    await expectFactsTrue(id);

    const kept = await deliver('HL-00-NOPE', 50_000);
    expect(kept.body.outcome).toBe('unapplied');
    const resolve = await finance.post(`/api/staff/unapplied-payments/${kept.body.id}/apply`, {
      loan: loanNumber,
    });
    expect(resolve.status, resolve.text).toBe(200);
    expect((await stored(id)).nextDueMinor).toBe(945_596 - 250_000);
    await expectFactsTrue(id);
  });

  it('new terms on a paid-out loan re-shape them', async () => {
    const b = await t.createUser({ role: 'borrower' });
    const id = await seedApplication(t.db, {
      borrowerId: b.user.id,
      phone: b.user.phone!,
      status: 'approved',
    });
    await payOut(id, 10_000_000);
    const { user, password } = await t.createUser({ role: 'admin' });
    const admin = await t.loginAs(user.username!, password);
    const before = await stored(id);
    const changed = await admin.post(`/api/staff/applications/approved/${id}/terms`, {
      amount: 100_000,
      termMonths: 6,
      reason: 'Borrower asked',
    });
    expect(changed.status, changed.text).toBe(200);
    // A new term binds once the borrower accepts it (docs/decisions/018); then the facts follow.
    expect((await stored(id)).nextDueMinor).toBe(before.nextDueMinor);
    const borrower = await t.loginAs(b.user.phone!, b.password);
    expect((await acceptProposedTerms(t, borrower, b.user.phone!)).status).toBe(200);
    expect((await stored(id)).nextDueMinor).not.toBe(before.nextDueMinor);
    await expectFactsTrue(id);
  });

  it('refuses a term that would end before a payout already made, and changes nothing', async () => {
    const id = await paidOutLoan(5_000_000);
    // The first payout 200 days ago (payouts are stamped with the database's time, not the test clock).
    await t.db
      .updateTable('disbursements')
      .set({ decided_at: sql<Date>`now() - interval '200 days'` })
      .where('application_id', '=', id)
      .execute();
    await payOut(id, 2_000_000);
    const admin = await t.signInStaff('admin');
    const before = await stored(id);
    const refused = await admin.post(`/api/staff/applications/approved/${id}/terms`, {
      amount: 100_000,
      termMonths: 6,
      reason: 'Borrower asked',
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error.code).toBe('LOAN_TERM_TOO_SHORT');
    expect(refused.body.error.fields.termMonths.code).toBe('LOAN_TERM_TOO_SHORT');
    const row = await t.db
      .selectFrom('applications')
      .select('term_months')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.term_months).toBe(12);
    expect(await stored(id)).toEqual(before);
    // A term that still reaches past the latest payout is fine.
    const longer = await admin.post(`/api/staff/applications/approved/${id}/terms`, {
      amount: 100_000,
      termMonths: 18,
      reason: 'Borrower asked',
    });
    expect(longer.status, longer.text).toBe(200);
    await expectFactsTrue(id);
  });

  it('the start-up backfill computes them for loans paid out before they were stored, once', async () => {
    const b = await t.createUser({ role: 'borrower' });
    const id = await seedApplication(t.db, {
      borrowerId: b.user.id,
      phone: b.user.phone!,
      status: 'approved',
    });
    await seedPaidDisbursement(t.db, id);
    await t.db.insertInto('loan_facts_stale').values({ application_id: id }).execute();
    expect((await stored(id)).factsAsOf).toBeNull();
    clock.days = 45;
    expect(await backfillLoanFacts(t.deps, 1)).toBeGreaterThanOrEqual(1);
    expect((await stored(id)).factsAsOf).toBe(today());
    await expectFactsTrue(id);
    expect(await t.db.selectFrom('loan_facts_stale').selectAll().execute()).toEqual([]);
    expect(await backfillLoanFacts(t.deps)).toBe(0);
  });
});
