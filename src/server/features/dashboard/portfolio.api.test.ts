import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { addMonthsClamped, daysBetween } from '../../../domain/loan/calendar';
import { payOutThroughApi, seedApplication } from '../../test-support/seed';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../../test-support/test-app';

/**
 * The dashboard's portfolio figures (issue #10), against values computed by hand. Six ₱100,000 loans over
 * 12 months at 2 % are paid out today (real time); the clock then moves 40 days past the first due date, so
 * instalments 1 and 2 are due. Instalment 1 is ₱2,000.00 interest + ₱7,455.96 principal; instalment 2's
 * interest is 2 % of ₱92,544.04 = ₱1,850.88, its principal ₱7,605.08. Grace is the default 3 days.
 */
const clock = shiftedClock();
let t: TestApp;
let finance: Agent;
let officer: Agent;
let payDay: string;
const today = () => todayIn('Asia/Manila', clock.now());
const due = (k: number) => addMonthsClamped(payDay, k);
let references = 0;
const ref = () => `PF-${++references}`;
const ids: Record<string, string> = {};
const received: { on: string; amountMinor: number }[] = [];

async function paidOutLoan(name: string) {
  const b = await t.createUser({ role: 'borrower' });
  const id = await seedApplication(t.db, { borrowerId: b.user.id, phone: b.user.phone!, status: 'approved' });
  await payOutThroughApi(t.db, finance, id, 10_000_000, ref());
  ids[name] = id;
}

async function repay(name: string, amountMinor: number, on: string) {
  const response = await finance.post(`/api/staff/loans/${ids[name]}/repayments`, {
    amount: (amountMinor / 100).toFixed(2),
    receivedOn: on,
    channel: 'cash',
    reference: ref(),
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id as string;
}

const portfolio = async () => {
  const response = await officer.get('/api/staff/dashboard/portfolio');
  expect(response.status, response.text).toBe(200);
  return response.body;
};
const collectedThisMonth = () =>
  received.filter((r) => r.on.slice(0, 7) === today().slice(0, 7)).reduce((sum, r) => sum + r.amountMinor, 0);

beforeAll(async () => {
  t = await createTestApp({ clock });
  finance = await t.signInStaff('finance');
  officer = await t.signInStaff('officer');
  payDay = today();
  for (const name of ['unpaid', 'paid1', 'paid2', 'held', 'closed', 'partly']) await paidOutLoan(name);
  // A pending application has no money out and counts for nothing.
  const p = await t.createUser({ role: 'borrower' });
  await seedApplication(t.db, { borrowerId: p.user.id, phone: p.user.phone!, status: 'pending' });

  await repay('closed', 10_000_000, payDay);
  received.push({ on: payDay, amountMinor: 10_000_000 });
  await t.db.updateTable('applications').set({ status: 'on_hold' }).where('id', '=', ids.held!).execute();

  clock.days = daysBetween(payDay, due(1)) + 40;
  await repay('paid1', 945_596, due(1));
  await repay('paid2', 945_596, due(1));
  await repay('paid2', 945_596, due(2));
  received.push(
    { on: due(1), amountMinor: 945_596 },
    { on: due(1), amountMinor: 945_596 },
    { on: due(2), amountMinor: 945_596 },
  );
  // Today: ₱5,000 kept (interest due ₱3,850.88, then ₱1,149.12 of principal) and ₱777 reversed.
  await repay('partly', 500_000, today());
  received.push({ on: today(), amountMinor: 500_000 });
  const mistake = await repay('partly', 77_700, today());
  const reversed = await finance.post(`/api/staff/repayments/${mistake}/reverse`, { reason: 'Wrong loan' });
  expect(reversed.status, reversed.text).toBe(200);
});
afterAll(() => t.close());

describe('dashboard portfolio figures', () => {
  it('outstanding principal, collected this month, overdue loans and PAR30, by hand', async () => {
    const outstanding = {
      unpaid: 10_000_000,
      paid1: 10_000_000 - 745_596, // next due: instalment 2, 9 to 12 days ago → overdue, not at risk
      paid2: 10_000_000 - 745_596 - 760_508, // next due: instalment 3, not yet
      held: 10_000_000,
      partly: 10_000_000 - 114_912,
    };
    const total = Object.values(outstanding).reduce((a, b) => a + b, 0);
    expect(total).toBe(47_633_388);
    const atRisk = outstanding.unpaid + outstanding.held + outstanding.partly; // 40 days past due
    expect(await portfolio()).toEqual({
      asOf: today(),
      outstandingPrincipalMinor: 47_633_388,
      collectedThisMonthMinor: collectedThisMonth(),
      // No loan here takes fees.
      feesThisMonthMinor: 0,
      overdueLoans: 4,
      par30Bp: Math.round((atRisk * 10_000) / total),
    });
    expect(Math.round((atRisk * 10_000) / total)).toBe(6274);
    expect(collectedThisMonth()).toBeGreaterThanOrEqual(500_000);
  });

  it('follows a repayment at once, and the passing days', async () => {
    const before = await portfolio();
    // ₱10,000 on the unpaid loan: ₱3,850.88 interest due, then ₱6,149.12 of instalment 1's principal.
    await repay('unpaid', 1_000_000, today());
    const after = await portfolio();
    expect(after.outstandingPrincipalMinor).toBe(before.outstandingPrincipalMinor - 614_912);
    expect(after.collectedThisMonthMinor).toBe(before.collectedThisMonthMinor + 1_000_000);
    expect(after.overdueLoans).toBe(4);

    // Thirty days later nothing was paid: the loan that owed instalment 2 is now at risk too.
    const kept = clock.days;
    clock.days += 30;
    try {
      const later = await portfolio();
      expect(later.asOf).toBe(today());
      expect(later.outstandingPrincipalMinor).toBe(after.outstandingPrincipalMinor);
      expect(later.par30Bp).toBe(
        Math.round(
          ((after.outstandingPrincipalMinor - (10_000_000 - 745_596 - 760_508)) * 10_000) /
            after.outstandingPrincipalMinor,
        ),
      );
    } finally {
      clock.days = kept;
    }
  });

  it('is for staff: a borrower is refused, a signed-out caller must sign in', async () => {
    const b = await t.signUpBorrower();
    const borrower = await t.loginAs(b.phone, b.password);
    expect((await borrower.get('/api/staff/dashboard/portfolio')).status).toBe(403);
    expect((await t.api.get('/api/staff/dashboard/portfolio')).status).toBe(401);
  });
});
