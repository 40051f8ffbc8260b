import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../domain/date-text';
import { addDays, addMonthsClamped } from '../../domain/loan/calendar';
import { loanTermsOf, parseLoanTerms } from '../../domain/loan/loan-terms';
import { defaultRepaymentRules } from '../../domain/loan/repayments';
import { defaultLoanProduct } from '../../domain/loan/terms';
import type { Config } from '../config';
import { payOutThroughApi, seedApplication } from '../test-support/seed';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../test-support/test-app';
import { backfillLoanTerms } from './backfill-loan-terms';

/**
 * A loan keeps the terms it was signed under (issue #31, docs/decisions/033): the rate, fees, late charge and
 * grace days stored with it at signing price it for its whole life, whatever the server's settings say later.
 */
const clock = shiftedClock();
let t: TestApp;
let finance: Agent;
let officer: Agent;
const today = () => todayIn('Asia/Manila', clock.now());
let references = 0;
const ref = () => `TERMS-${++references}`;

beforeAll(async () => {
  t = await createTestApp({ clock });
  finance = await t.signInStaff('finance');
  officer = await t.signInStaff('officer');
});
afterAll(() => t.close());

/** A borrower's approved loan of ₱100,000, paid out through the API. */
async function paidOutLoan(): Promise<string> {
  const b = await t.createUser({ role: 'borrower' });
  const id = await seedApplication(t.db, { borrowerId: b.user.id, phone: b.user.phone!, status: 'approved' });
  await payOutThroughApi(t.db, finance, id, 10_000_000, ref());
  return id;
}
/** Every setting that priced loans before issue #31, changed at once (as an operator editing .env would). */
function changeEverySetting(): () => void {
  const config = t.deps.config as { -readonly [K in keyof Config]: Config[K] };
  const before = { loanProduct: config.loanProduct, repaymentRules: config.repaymentRules };
  config.loanProduct = {
    ...config.loanProduct,
    monthlyRateBp: 450,
    fees: { flatMinor: 75_000, percentBp: 250 },
  };
  config.repaymentRules = { graceDays: 0, lateChargeMonthlyBp: 500 };
  return () => Object.assign(config, before);
}

async function figures(id: string) {
  t.forgetCachedAnswers();
  const ledger = await finance.get(`/api/staff/loans/${id}/ledger`);
  expect(ledger.status, ledger.text).toBe(200);
  const statement = await finance.get(`/api/staff/loans/${id}/statement.pdf`);
  expect(statement.status).toBe(200);
  const row = await t.db
    .selectFrom('applications')
    .select(['status', 'terms', 'next_due_minor', 'outstanding_principal_minor'])
    .select(sql<string | null>`next_due_on::text`.as('next_due_on'))
    .select(sql<string | null>`overdue_from::text`.as('overdue_from'))
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const overdue = (await officer.get('/api/staff/overdue')).body.items.some(
    (i: { id: string }) => i.id === id,
  );
  return { position: ledger.body.position, row, overdue };
}

describe("a signed loan's terms", () => {
  it('a new application stores the terms it is offered under, and its disclosure names them', async () => {
    const offered = loanTermsOf(t.deps.config.loanProduct, t.deps.config.repaymentRules);
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    const quote = await agent.post('/api/applications/quote', { amount: 100000, termMonths: 12 });
    expect(quote.body.disclosure).toMatchObject({
      version: 2,
      lateCharge: { monthlyRate: '0', monthlyBp: 0, graceDays: 3 },
      fees: { collection: 'deducted_from_payout' },
      netProceedsMinor: 10_000_000,
    });
    expect(offered).toEqual(loanTermsOf(defaultLoanProduct, defaultRepaymentRules));
  });

  it('change nothing when every setting changes after signing: schedule, position, statement, facts, queue', async () => {
    const id = await paidOutLoan();
    const payDay = today();
    // Two days into its grace: due, not overdue, no late charge.
    const firstDue = addMonthsClamped(payDay, 1);
    const before = clock.days;
    while (today() < addDays(firstDue, 2)) clock.days += 1;
    try {
      const signed = await figures(id);
      expect(signed.position.schedule[0]).toMatchObject({ status: 'due', daysPastDue: 2 });
      expect(signed.overdue).toBe(false);
      const restore = changeEverySetting();
      try {
        const later = await figures(id);
        expect(later.position).toEqual(signed.position);
        expect(later.row).toEqual(signed.row);
        expect(later.overdue).toBe(false);
        // A money event recomputes the stored facts: still by the loan's own terms.
        const paid = await finance.post(`/api/staff/loans/${id}/repayments`, {
          amount: '100',
          receivedOn: today(),
          channel: 'cash',
          reference: ref(),
        });
        expect(paid.status, paid.text).toBe(201);
        const after = await figures(id);
        expect(after.position.lateChargeMonthlyBp).toBe(0);
        expect(after.position.graceDays).toBe(3);
        expect(after.position.lateChargesDueMinor).toBe(0);
        expect(after.row.overdue_from).toBe(addDays(firstDue, 4));
        expect(parseLoanTerms(after.row.terms)).toEqual(parseLoanTerms(signed.row.terms));
      } finally {
        restore();
      }
    } finally {
      clock.days = before;
    }
  });

  it('a loan paid off under no late charge stays closed with nothing owed when the setting becomes 5 %', async () => {
    const id = await paidOutLoan();
    const before = clock.days;
    try {
      // Paid off three months late, in one payment: no late charge was due under its terms.
      clock.days += 120;
      const position = (await finance.get(`/api/staff/loans/${id}/ledger`)).body.position;
      expect(position.lateChargesDueMinor).toBe(0);
      const payoff = await finance.post(`/api/staff/loans/${id}/repayments`, {
        amount: (position.payoffMinor / 100).toFixed(2),
        receivedOn: today(),
        channel: 'cash',
        reference: ref(),
      });
      expect(payoff.status, payoff.text).toBe(201);
      expect(payoff.body.loanStatus).toBe('closed');
      const closed = await figures(id);
      const restore = changeEverySetting();
      try {
        clock.days += 30;
        const later = await figures(id);
        expect(later.row.status).toBe('closed');
        expect(later.position.payoffMinor).toBe(0);
        expect(later.position.lateChargesDueMinor).toBe(0);
        expect(later.position.schedule.every((i: { unpaidMinor: number }) => i.unpaidMinor === 0)).toBe(true);
        expect(later.position.schedule).toEqual(closed.position.schedule);
      } finally {
        restore();
      }
    } finally {
      clock.days = before;
    }
  });
});

describe('loans signed before terms were stored (migration 024)', () => {
  it('get the rate they were signed at, the fees their disclosure names, and the late charge and grace in force', async () => {
    const id = await paidOutLoan();
    await sql`
      update applications set terms = null, overdue_from = null, monthly_rate_bp = 250,
        disclosure = ${JSON.stringify({ fees: { flatMinor: 20_000, percentBp: 50, totalMinor: 70_000 } })}::jsonb
      where id = ${id}`.execute(t.db);
    expect(
      await backfillLoanTerms(t.deps, { graceDays: 5, lateChargeMonthlyBp: 300 }, 1),
    ).toBeGreaterThanOrEqual(1);
    const row = await t.db
      .selectFrom('applications')
      .select('terms')
      .select(sql<string | null>`next_due_on::text`.as('next_due_on'))
      .select(sql<string | null>`overdue_from::text`.as('overdue_from'))
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(parseLoanTerms(row.terms)).toEqual({
      monthlyRateBp: 250,
      fees: { flatMinor: 20_000, percentBp: 50, collection: 'deducted_from_payout' },
      lateChargeMonthlyBp: 300,
      graceDays: 5,
      rounding: 'half_up_per_instalment',
    });
    expect(row.overdue_from).toBe(addDays(row.next_due_on!, 6));
    // Once written, never again: a second run with other settings changes nothing.
    expect(await backfillLoanTerms(t.deps, { graceDays: 0, lateChargeMonthlyBp: 0 })).toBe(0);
    const again = await t.db
      .selectFrom('applications')
      .select('terms')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(again.terms).toEqual(row.terms);
  });

  it('a loan with terms but no overdue date gets one; with nothing to fill, nothing is written', async () => {
    const id = await paidOutLoan();
    await backfillLoanTerms(t.deps, { graceDays: 5, lateChargeMonthlyBp: 300 });
    const overdueFrom = async () =>
      (
        await t.db
          .selectFrom('applications')
          .select(sql<string | null>`overdue_from::text`.as('overdue_from'))
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).overdue_from;
    const stored = await overdueFrom();
    expect(stored).not.toBeNull();
    await sql`update applications set overdue_from = null where id = ${id}`.execute(t.db);
    // The statements the backfill sends, as SQL text.
    const sent: string[] = [];
    const recorded = t.db.withPlugin({
      transformQuery: (args) => {
        const node = args.node as { kind: string; sqlFragments?: readonly string[] };
        sent.push(node.kind === 'RawNode' ? (node.sqlFragments ?? []).join('?') : node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    expect(await backfillLoanTerms({ db: recorded }, { graceDays: 0, lateChargeMonthlyBp: 0 })).toBe(0);
    expect(await overdueFrom()).toBe(stored);
    expect(sent.filter((text) => /^\s*update\b/.test(text))).toHaveLength(1);
    // Nothing left to fill: no UPDATE at all (one that changes no row still fires the statement triggers).
    sent.length = 0;
    expect(await backfillLoanTerms({ db: recorded }, { graceDays: 0, lateChargeMonthlyBp: 0 })).toBe(0);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((text) => /\bupdate\b/i.test(text))).toEqual([]);
  });

  it('a stored rate other than the loan rate is refused by the database', async () => {
    const b = await t.createUser({ role: 'borrower' });
    const id = await seedApplication(t.db, {
      borrowerId: b.user.id,
      phone: b.user.phone!,
      status: 'approved',
    });
    await expect(
      sql`update applications set monthly_rate_bp = 300 where id = ${id}`.execute(t.db),
    ).rejects.toThrow(/applications_terms_rate/);
  });
});
