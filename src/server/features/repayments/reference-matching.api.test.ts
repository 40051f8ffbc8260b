import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { addDays, addMonthsClamped, daysBetween } from '../../../domain/loan/calendar';
import { deliverPaymentWebhook } from '../../test-support/payment-webhook';
import { loanNumberOf, payOutThroughApi, seedApplication } from '../../test-support/seed';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../../test-support/test-app';

/**
 * Reference matching that forgives formatting (issue #32, docs/decisions/038): the webhook applies a
 * payment whose reference names a loan however it is written (HL26000002, hl-26-2, inside a memo), keeps
 * for finance what names two loans or nothing clearly; finance applies by a loan number typed any way and
 * sees, for each kept payment, the loan it likely belongs to (reference, then the payer's phone, then the
 * amount due near its date); the back-office searches read loan numbers the same way.
 *
 * Every loan is paid out on `payDay` (today, real time); the clock then moves to five days after the first
 * due date, so each loan has its first instalment due and unpaid (3 grace days: overdue).
 */
const secret = 'test-webhook-secret-0123456789-abcdefghijklmnop';
const clock = shiftedClock();
let t: TestApp;
let finance: Agent;
let admin: Agent;
let officer: Agent;
let payDay: string;
const due = (k: number) => addMonthsClamped(payDay, k);

interface Loan {
  id: string;
  loanNumber: string;
  phone: string;
  fullName: string;
}

let references = 0;
const providerRef = () => `RM-${++references}`;

async function paidOutLoan(fullName: string, payoutMinor = 10_000_000): Promise<Loan> {
  const b = await t.createUser({ role: 'borrower' });
  const phone = b.user.phone!;
  const id = await seedApplication(t.db, { borrowerId: b.user.id, phone, fullName, status: 'approved' });
  await payOutThroughApi(t.db, finance, id, payoutMinor, `PAYOUT-${providerRef()}`);
  const loanNumber = await loanNumberOf(t.db, id);
  return { id, loanNumber, phone, fullName };
}

const payload = (overrides: Record<string, unknown> = {}) => ({
  reference: providerRef(),
  paymentReference: 'no loan number here',
  amountMinor: 10_000,
  currency: 'PHP',
  receivedAt: clock.now().toISOString(),
  ...overrides,
});

const deliver = (body: unknown) => deliverPaymentWebhook(t.agent(), secret, body, clock.now());

async function repaymentsOf(loanId: string) {
  return t.db
    .selectFrom('repayments')
    .select(['id', 'amount', 'reference'])
    .where('application_id', '=', loanId)
    .orderBy('created_at')
    .execute();
}

interface Listed {
  id: string;
  status: string;
  payerPhone: string | null;
  memo: string | null;
  suggestion: {
    loanId: string;
    loanNumber: string;
    fullName: string;
    basis: string;
    on: string | null;
  } | null;
}

/** A kept payment as finance's list shows it, on whichever page it is. */
async function listed(id: string): Promise<Listed | undefined> {
  for (let page = 1; page <= 20; page++) {
    const list = await finance.get(`/api/staff/unapplied-payments?page=${page}`);
    expect(list.status, list.text).toBe(200);
    const item = list.body.items.find((i: { id: string }) => i.id === id);
    if (item || list.body.items.length === 0) return item;
  }
  return undefined;
}

/** Another way of writing a loan number ("HL-26-000123"): a function of its year and sequence. */
const variant = (loanNumber: string, write: (year: string, sequence: string) => string) => {
  const [, year, sequence] = loanNumber.split('-') as [string, string, string];
  return write(year, sequence);
};

let a: Loan;
let b: Loan;
let byPhone: Loan;
let byAmount: Loan;
let byAmountToo: Loan;
let twinA: Loan;
let twinB: Loan;

beforeAll(async () => {
  t = await createTestApp({ clock, config: { paymentsWebhook: { secret, channel: 'gcash' } } });
  finance = await t.signInStaff('finance');
  admin = await t.signInStaff('admin');
  officer = await t.signInStaff('officer');
  payDay = todayIn('Asia/Manila', clock.now());
  a = await paidOutLoan('Ana Reyes');
  b = await paidOutLoan('Ben Cruz');
  byPhone = await paidOutLoan('Pia Phone');
  // Amounts no other loan here has, so its instalment names it alone; the twins share theirs.
  byAmount = await paidOutLoan('Amado Amount', 3_700_000);
  byAmountToo = await paidOutLoan('Berta Batch', 4_300_000);
  twinA = await paidOutLoan('Tina Twin', 5_000_000);
  twinB = await paidOutLoan('Toni Twin', 5_000_000);
  clock.days = daysBetween(payDay, due(1)) + 5;
});
afterAll(() => t.close());

describe('the webhook reads the loan number however it is written', () => {
  it('applies HL26000002, lower case, spaces, no prefix, dropped zeros and a memo to the loan', async () => {
    const written = [
      variant(a.loanNumber, (y, s) => `HL${y}${s}`),
      a.loanNumber.toLowerCase(),
      variant(a.loanNumber, (y, s) => `HL ${y} ${s}`),
      variant(a.loanNumber, (y, s) => ` hl${y}-${s} `),
      variant(a.loanNumber, (y, s) => `${y}-${s}`),
      variant(a.loanNumber, (y, s) => `hl-${y}-${Number(s)}`),
      variant(a.loanNumber, (y, s) => `Hl.${y}.${s}`),
      `Payment for ${a.loanNumber} thanks`,
    ];
    for (const paymentReference of written) {
      const response = await deliver(payload({ paymentReference }));
      expect(response.status, response.text).toBe(200);
      expect(response.body, paymentReference).toMatchObject({ outcome: 'applied', reason: null });
    }
    // The reference says nothing; the payer's memo names the loan.
    const memo = await deliver(
      payload({
        paymentReference: 'GCash',
        memo: variant(a.loanNumber, (y, s) => `bayad sa HL${y}${s}, salamat`),
      }),
    );
    expect(memo.body).toMatchObject({ outcome: 'applied' });
    expect(await repaymentsOf(a.id)).toHaveLength(written.length + 1);
  });

  it('keeps for finance a payment naming two loans, or nothing a loan number clearly means', async () => {
    const two = await deliver(payload({ paymentReference: a.loanNumber, memo: `also ${b.loanNumber}` }));
    expect(two.body).toMatchObject({ outcome: 'unapplied', reason: 'ambiguous_reference' });
    const both = await deliver(payload({ paymentReference: `${a.loanNumber} / ${b.loanNumber}` }));
    expect(both.body).toMatchObject({ outcome: 'unapplied', reason: 'ambiguous_reference' });
    for (const paymentReference of [
      variant(a.loanNumber, (y, s) => `${y}${s}`), // a bare number: an account, an amount?
      variant(a.loanNumber, (y, s) => `XL-${y}-${s}`), // another lender's prefix
      variant(a.loanNumber, (y, s) => `HL${y}${Number(s)}`), // run together and short: where does the year end?
      a.phone,
      '1,500.00',
    ]) {
      const kept = await deliver(payload({ paymentReference }));
      expect(kept.body, paymentReference).toMatchObject({
        outcome: 'unapplied',
        reason: 'unknown_reference',
      });
    }
    expect(await repaymentsOf(b.id)).toHaveLength(0);
  });

  it("compares the provider's own reference as sent: references differing in case or dashes are other payments", async () => {
    const before = (await repaymentsOf(b.id)).length;
    const ids = new Set<string>();
    for (const reference of ['PAY-77-x', 'pay-77-X', 'PAY77X']) {
      const response = await deliver(payload({ reference, paymentReference: b.loanNumber }));
      expect(response.body.outcome).toBe('applied');
      ids.add(response.body.id);
    }
    expect(ids.size).toBe(3);
    expect(await repaymentsOf(b.id)).toHaveLength(before + 3);
    // A redelivery of one of them is still that one.
    const again = await deliver(payload({ reference: 'pay-77-X', paymentReference: b.loanNumber }));
    expect(ids.has(again.body.id)).toBe(true);
  });
});

describe('finance applies a kept payment by a loan number typed any way', () => {
  it('HL26000002 and hl 26 2 find the loan; what names no loan clearly is LOAN_NOT_FOUND on the field', async () => {
    for (const typed of [
      variant(b.loanNumber, (y, s) => `HL${y}${s}`),
      variant(b.loanNumber, (y, s) => ` hl ${y} ${Number(s)} `),
    ]) {
      const kept = await deliver(payload());
      expect(kept.body.outcome).toBe('unapplied');
      const applied = await finance.post(`/api/staff/unapplied-payments/${kept.body.id}/apply`, {
        loan: typed,
      });
      expect(applied.status, applied.text).toBe(200);
      expect(applied.body).toMatchObject({ status: 'applied', loanNumber: b.loanNumber });
    }
    const kept = await deliver(payload());
    for (const typed of [
      variant(b.loanNumber, (y, s) => `${y}${s}`),
      `${a.loanNumber} ${b.loanNumber}`,
      'x',
    ]) {
      const refused = await finance.post(`/api/staff/unapplied-payments/${kept.body.id}/apply`, {
        loan: typed,
      });
      expect(refused.status, typed).toBe(404);
      expect(refused.body.error).toMatchObject({
        code: 'LOAN_NOT_FOUND',
        fields: { loan: { code: 'LOAN_NOT_FOUND' } },
      });
    }
  });
});

describe('Unapplied suggests the likely loan', () => {
  it('by the loan number in the reference: a payment kept before references were read forgivingly', async () => {
    const compact = variant(a.loanNumber, (y, s) => `HL${y}${s}`);
    const row = await t.db
      .insertInto('unapplied_payments')
      .values({
        provider: 'gcash',
        provider_reference: providerRef(),
        amount: 25_000,
        received_at: clock.now(),
        payer_reference: compact,
        payer_name: 'Ana Reyes',
        payload: JSON.stringify({ paymentReference: compact }),
        reason: 'unknown_reference',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    t.forgetCachedAnswers();
    expect((await listed(row.id))?.suggestion).toEqual({
      loanId: a.id,
      loanNumber: a.loanNumber,
      fullName: 'Ana Reyes',
      basis: 'reference',
      on: null,
    });
    // Finance applies it in one step, as suggested: a repayment, audited as any.
    const applied = await finance.post(`/api/staff/unapplied-payments/${row.id}/apply`, {
      loan: a.loanNumber,
    });
    expect(applied.status, applied.text).toBe(200);
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['action', 'actor_role', 'loan_id'])
      .where('target_id', '=', row.id)
      .where('action', '=', 'payment.apply')
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ action: 'payment.apply', actor_role: 'finance', loan_id: a.id });
    // Resolved: no suggestion any more.
    expect((await listed(row.id))?.suggestion).toBeNull();
  });

  it("by the reference first, even when the payer's phone is another borrower's", async () => {
    const first = payload({ paymentReference: a.loanNumber, amountMinor: 12_345 });
    expect((await deliver(first)).body.outcome).toBe('applied');
    // The same provider reference with another amount: kept as a conflict, naming loan a.
    const conflict = await deliver({ ...first, amountMinor: 54_321, payerPhone: byPhone.phone });
    expect(conflict.body).toMatchObject({ outcome: 'unapplied', reason: 'reference_conflict' });
    expect((await listed(conflict.body.id))?.suggestion).toMatchObject({ loanId: a.id, basis: 'reference' });
  });

  it("by the payer's phone, written any way, when it is a borrower's with a running loan", async () => {
    const national = byPhone.phone.slice(1); // 9171234567
    const international = `+63 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`;
    const kept = await deliver(
      payload({
        paymentReference: 'my loan',
        payerPhone: international,
        memo: 'for my loan po',
        amountMinor: 77_700,
      }),
    );
    expect(kept.body).toMatchObject({ outcome: 'unapplied', reason: 'unknown_reference' });
    const item = await listed(kept.body.id);
    expect(item).toMatchObject({ payerPhone: international, memo: 'for my loan po' });
    expect(item?.suggestion).toEqual({
      loanId: byPhone.id,
      loanNumber: byPhone.loanNumber,
      fullName: 'Pia Phone',
      basis: 'phone',
      on: null,
    });
    // A phone no borrower has: nothing suggested.
    const stranger = await deliver(payload({ payerPhone: '0999 000 0000', amountMinor: 77_701 }));
    expect((await listed(stranger.body.id))?.suggestion).toBeNull();

    const applied = await finance.post(`/api/staff/unapplied-payments/${kept.body.id}/apply`, {
      loan: item!.suggestion!.loanNumber,
    });
    expect(applied.status, applied.text).toBe(200);
    expect(await repaymentsOf(byPhone.id)).toHaveLength(1);
  });

  it('by the amount due on the payment date, or an instalment falling due near it; never when two loans match', async () => {
    const facts = await t.db
      .selectFrom('applications')
      .select(['id', 'next_due_minor'])
      .select((eb) => eb.cast<string>('next_due_on', 'text').as('next_due_on'))
      .where('id', 'in', [byAmount.id, byAmountToo.id, twinA.id, twinB.id])
      .execute();
    const of = (loan: Loan) => facts.find((f) => f.id === loan.id)!;
    expect(of(byAmount).next_due_on).toBe(due(1));
    const instalment = Number(of(byAmount).next_due_minor);
    expect(of(twinA).next_due_minor).toBe(of(twinB).next_due_minor);

    // Paid today, five days after the due date: everything due today.
    const late = await deliver(payload({ paymentReference: 'hulog', amountMinor: instalment }));
    expect(late.body).toMatchObject({ outcome: 'unapplied', reason: 'unknown_reference' });
    expect((await listed(late.body.id))?.suggestion).toEqual({
      loanId: byAmount.id,
      loanNumber: byAmount.loanNumber,
      fullName: 'Amado Amount',
      basis: 'amount',
      on: due(1),
    });
    // Another loan's instalment on the same page: each payment replays its own loan (read together).
    const other = await deliver(
      payload({ paymentReference: 'bayad', amountMinor: Number(of(byAmountToo).next_due_minor) }),
    );
    expect(Number(of(byAmountToo).next_due_minor)).not.toBe(instalment);
    expect((await listed(other.body.id))?.suggestion).toEqual({
      loanId: byAmountToo.id,
      loanNumber: byAmountToo.loanNumber,
      fullName: 'Berta Batch',
      basis: 'amount',
      on: due(1),
    });
    expect((await listed(late.body.id))?.suggestion).toMatchObject({ loanId: byAmount.id, on: due(1) });
    // Paid four days before the due date (nothing due yet that day): the instalment falling due.
    const early = await deliver(
      payload({
        paymentReference: 'advance',
        amountMinor: instalment,
        receivedAt: new Date(`${addDays(due(1), -4)}T04:00:00Z`).toISOString(),
      }),
    );
    expect((await listed(early.body.id))?.suggestion).toMatchObject({
      loanId: byAmount.id,
      basis: 'amount',
      on: due(1),
    });
    // Two loans owe that amount: no guess.
    const twin = await deliver(payload({ amountMinor: Number(of(twinA).next_due_minor) }));
    expect((await listed(twin.body.id))?.suggestion).toBeNull();
    // An amount no loan has due near then.
    const odd = await deliver(payload({ amountMinor: instalment + 1 }));
    expect((await listed(odd.body.id))?.suggestion).toBeNull();
    // Received long before the instalment falls due: not near.
    const far = await deliver(
      payload({
        amountMinor: instalment,
        receivedAt: new Date(`${addDays(due(1), -20)}T04:00:00Z`).toISOString(),
      }),
    );
    expect((await listed(far.body.id))?.suggestion).toBeNull();

    // Finance applies the suggestion: the arrears are cleared.
    const applied = await finance.post(`/api/staff/unapplied-payments/${late.body.id}/apply`, {
      loan: byAmount.loanNumber,
    });
    expect(applied.status, applied.text).toBe(200);
    const ledger = await finance.get(`/api/staff/loans/${byAmount.id}/ledger`);
    expect(ledger.body.position).toMatchObject({ amountDueNowMinor: 0, daysPastDue: 0 });
  });

  it('never applies by a phone or an amount by itself', async () => {
    const before = await repaymentsOf(byAmount.id);
    const phoneAndAmount = await deliver(
      payload({ paymentReference: 'salamat', payerPhone: byAmount.phone, amountMinor: 945_596 }),
    );
    expect(phoneAndAmount.body).toMatchObject({ outcome: 'unapplied' });
    expect(await repaymentsOf(byAmount.id)).toEqual(before);
  });
});

describe('back-office searches read loan numbers the same way', () => {
  it('the Repayments list, the Overdue queue and the audit log', async () => {
    const compact = variant(b.loanNumber, (y, s) => `hl${y}${s}`);
    const short = variant(b.loanNumber, (y, s) => `HL-${y}-${Number(s)}`);
    for (const q of [compact, short, b.loanNumber]) {
      const repayments = await officer.get(`/api/staff/repayments?q=${encodeURIComponent(q)}`);
      expect(repayments.status, repayments.text).toBe(200);
      expect(repayments.body.items.length, q).toBeGreaterThan(0);
      expect(new Set(repayments.body.items.map((i: { loanNumber: string }) => i.loanNumber)), q).toEqual(
        new Set([b.loanNumber]),
      );
    }
    // The twins have paid nothing: overdue (five days past due, three grace days).
    const twin = variant(twinA.loanNumber, (y, s) => `${y} ${s}`);
    const overdue = await officer.get(`/api/staff/overdue?q=${encodeURIComponent(twin)}`);
    expect(overdue.status, overdue.text).toBe(200);
    expect(overdue.body.items.map((i: { loanNumber: string }) => i.loanNumber)).toEqual([twinA.loanNumber]);
    // Part of a number, separators aside, still narrows the list: its end, its start with the prefix (asked as
    // "starts with", migration 041) and a middle that starts after the prefix's first letter.
    const compactTwin = twinA.loanNumber.replaceAll('-', '');
    for (const part of [
      twinA.loanNumber.slice(-4),
      compactTwin.slice(0, -1).toLowerCase(),
      compactTwin.slice(1),
    ]) {
      const found = await officer.get(`/api/staff/overdue?q=${encodeURIComponent(part)}`);
      expect(found.status, found.text).toBe(200);
      expect(
        found.body.items.map((i: { loanNumber: string }) => i.loanNumber),
        part,
      ).toContain(twinA.loanNumber);
    }
    const startOfB = b.loanNumber.replaceAll('-', '').slice(0, -1);
    const byStart = await officer.get(`/api/staff/repayments?q=${encodeURIComponent(startOfB)}`);
    expect(byStart.body.items.map((i: { loanNumber: string }) => i.loanNumber)).toContain(b.loanNumber);
    // Text that starts with the prefix's letter but is not the start of any number finds nothing.
    const nowhere = await officer.get(
      `/api/staff/overdue?q=${encodeURIComponent(`H${compactTwin.slice(2)}`)}`,
    );
    expect(nowhere.body.items).toEqual([]);

    const audit = await admin.get(`/api/admin/audit?loan=${encodeURIComponent(compact)}`);
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.items.length).toBeGreaterThan(0);
    expect(new Set(audit.body.items.map((i: { loanNumber: string }) => i.loanNumber))).toEqual(
      new Set([b.loanNumber]),
    );
  });
});
