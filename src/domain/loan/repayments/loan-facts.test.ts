import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonthsClamped, daysBetween } from '../calendar';
import { deriveLoanPosition, type LoanRecords } from './ledger';
import { deriveLoanFacts, type LoanFacts } from './loan-facts';

const peso = (n: number) => n * 100;

/** What the SQL of the overdue queue and the dashboard reads from the stored facts on `today`. */
function readFacts(facts: LoanFacts, today: string) {
  const step =
    facts.principalStepOn !== null && facts.principalStepOn <= today ? facts.principalStepMinor : 0;
  const daysPastDue =
    facts.nextDueOn !== null && facts.nextDueOn < today ? daysBetween(facts.nextDueOn, today) : 0;
  return {
    outstandingPrincipalMinor: facts.outstandingPrincipalMinor + step,
    nextDueOn: facts.nextDueOn,
    nextDueMinor: facts.nextDueMinor,
    daysPastDue,
    overdue: facts.overdueFrom !== null && facts.overdueFrom <= today,
    dueUnpaidMinor: facts.unpaidInstalments
      .filter((i) => i.dueOn <= today)
      .reduce((sum, i) => sum + i.unpaidMinor, 0),
    upcomingDueOn: facts.unpaidInstalments.find((i) => i.dueOn > today)?.dueOn ?? null,
  };
}

/** The same figures from a full replay on `today`. */
function fromPosition(records: LoanRecords, today: string) {
  const p = deriveLoanPosition(records, today);
  const oldest = p.schedule.find((row) => row.unpaidMinor > 0);
  return {
    outstandingPrincipalMinor: p.outstandingPrincipalMinor,
    nextDueOn: p.nextPayment?.dueDate ?? null,
    nextDueMinor: p.nextPayment?.amountMinor ?? null,
    daysPastDue: oldest?.daysPastDue ?? 0,
    overdue: p.schedule.some((row) => row.status === 'overdue'),
    dueUnpaidMinor: p.principalDueMinor + p.interestDueMinor,
    upcomingDueOn: p.schedule.find((row) => !row.fixed && row.unpaidMinor > 0)?.dueDate ?? null,
  };
}

const loan = (repayments: LoanRecords['repayments'] = []): LoanRecords => ({
  termMonths: 12,
  monthlyRateBp: 200,
  disbursements: [{ amountMinor: peso(100_000), paidOn: '2025-01-31' }],
  repayments,
});

describe('deriveLoanFacts', () => {
  it('a loan paid out today: all principal out, the first instalment next', () => {
    expect(deriveLoanFacts(loan(), '2025-01-31')).toEqual({
      asOf: '2025-01-31',
      outstandingPrincipalMinor: peso(100_000),
      nextDueOn: '2025-02-28',
      nextDueMinor: 945_596,
      // Overdue after the 3 grace days of the default rules.
      overdueFrom: '2025-03-04',
      principalStepMinor: 0,
      principalStepOn: null,
      unpaidInstalments: Array.from({ length: 12 }, (_, i) => ({
        dueOn: addMonthsClamped('2025-01-31', i + 1),
        // The disclosed schedule: ₱9,455.96 a month, the last ₱9,455.97 with the rounding residue.
        unpaidMinor: i === 11 ? 945_597 : 945_596,
      })),
    });
  });

  it('an instalment paid ahead in full: the next is the one after, and its principal is repaid that day', () => {
    const records = loan([{ id: 'a', amountMinor: 945_596, receivedOn: '2025-02-10' }]);
    const facts = deriveLoanFacts(records, '2025-02-10');
    // ₱9,455.96 on Feb 10 = ₱714.29 of interest (10 of the month's 28 days) + ₱8,741.67 of principal.
    expect(facts).toMatchObject({
      outstandingPrincipalMinor: peso(100_000) - 874_167,
      nextDueOn: '2025-03-31',
      nextDueMinor: 945_596,
    });
    expect(readFacts(facts, '2025-02-27').outstandingPrincipalMinor).toBe(peso(100_000) - 874_167);
    expect(readFacts(facts, '2025-03-30')).toEqual(fromPosition(records, '2025-03-30'));
  });

  it('principal paid towards the next instalment that its interest needs is owed again from its due date', () => {
    // ₱9,000 on the payout day is all principal (no interest yet); on Feb 28 instalment 1 needs ₱2,000 −
    // (100,000 − 9,000) × … of interest: ₱1,820.00 on ₱91,000. It is paid from the ₱9,000, and that part is
    // owed again as principal from Feb 28.
    const records = loan([{ id: 'a', amountMinor: peso(9_000), receivedOn: '2025-01-31' }]);
    const facts = deriveLoanFacts(records, '2025-01-31');
    expect(facts).toMatchObject({
      outstandingPrincipalMinor: peso(91_000),
      principalStepMinor: 182_000,
      principalStepOn: '2025-02-28',
    });
    expect(readFacts(facts, '2025-02-27')).toEqual(fromPosition(records, '2025-02-27'));
    expect(readFacts(facts, '2025-02-28')).toEqual(fromPosition(records, '2025-02-28'));
  });

  it('unpaid for months: past due since the first due date, whatever today is', () => {
    const facts = deriveLoanFacts(loan(), '2025-01-31');
    expect(readFacts(facts, '2025-06-10')).toEqual(fromPosition(loan(), '2025-06-10'));
    expect(readFacts(facts, '2025-06-10').daysPastDue).toBe(daysBetween('2025-02-28', '2025-06-10'));
  });

  it('nothing left to pay: no next due date', () => {
    const records = loan([{ id: 'a', amountMinor: peso(100_000), receivedOn: '2025-01-31' }]);
    expect(deriveLoanFacts(records, '2025-01-31')).toMatchObject({
      outstandingPrincipalMinor: 0,
      nextDueOn: null,
      nextDueMinor: null,
    });
  });

  it('paid off, then paid out again: the repaid principal stays repaid and the facts hold on later days', () => {
    // Found by the property below: the payoff's principal used to wait as money paid ahead and settle one
    // instalment after another as they fell due, so the next due date moved with no event.
    const records: LoanRecords = {
      ...loan([{ id: 'a', amountMinor: peso(100_000), receivedOn: '2025-01-31' }]),
      disbursements: [
        { amountMinor: peso(100_000), paidOn: '2025-01-31' },
        { amountMinor: peso(1_200), paidOn: '2025-02-01' },
      ],
    };
    const facts = deriveLoanFacts(records, '2025-02-01');
    expect(facts.outstandingPrincipalMinor).toBe(peso(1_200));
    expect(facts.nextDueOn).toBe('2025-02-28');
    for (const day of ['2025-02-28', '2025-03-01', '2025-03-31', '2025-04-30', '2026-02-01']) {
      expect(readFacts(facts, day), day).toEqual(fromPosition(records, day));
    }
  });
});

// ——— the facts of any history stay true on every later day without events ———

const history = fc
  .record({
    termMonths: fc.constantFrom(1, 2, 3, 6, 12, 24),
    monthlyRateBp: fc.integer({ min: 0, max: 600 }),
    startDay: fc.integer({ min: 0, max: 1200 }),
    firstMinor: fc.integer({ min: peso(1_000), max: peso(500_000) }),
    extra: fc.array(fc.record({ day: fc.nat(), amountMinor: fc.integer({ min: 1, max: peso(300_000) }) }), {
      maxLength: 2,
    }),
    repayments: fc.array(
      fc.record({
        day: fc.integer({ min: 0, max: 700 }),
        amountMinor: fc.oneof(
          fc.integer({ min: 1, max: peso(20_000) }),
          fc.integer({ min: 1, max: peso(900_000) }),
        ),
        reversedAfter: fc.option(fc.integer({ min: 0, max: 60 }), { freq: 4 }),
      }),
      { maxLength: 6 },
    ),
    graceDays: fc.integer({ min: 0, max: 10 }),
    lateChargeMonthlyBp: fc.integer({ min: 0, max: 500 }),
    eventDay: fc.integer({ min: 0, max: 800 }),
  })
  .map((s) => {
    const start = addDays('2024-01-01', s.startDay);
    const span = daysBetween(start, addMonthsClamped(start, s.termMonths));
    const asOf = addDays(start, s.eventDay);
    const records: LoanRecords = {
      termMonths: s.termMonths,
      monthlyRateBp: s.monthlyRateBp,
      rules: { graceDays: s.graceDays, lateChargeMonthlyBp: s.lateChargeMonthlyBp },
      disbursements: [
        { amountMinor: s.firstMinor, paidOn: start },
        ...s.extra.map((e) => ({ amountMinor: e.amountMinor, paidOn: addDays(start, e.day % span) })),
      ].filter((d) => d.paidOn <= asOf),
      // Only what was recorded by the event's day: later days bring no new records.
      repayments: s.repayments
        .map((r, index) => {
          const receivedOn = addDays(start, r.day);
          const reversedOn = r.reversedAfter === null ? null : addDays(receivedOn, r.reversedAfter);
          return {
            id: `r${index}`,
            amountMinor: r.amountMinor,
            receivedOn,
            reversedOn: reversedOn && reversedOn <= asOf ? reversedOn : null,
          };
        })
        .filter((r) => r.receivedOn <= asOf),
    };
    return { records, asOf, graceDays: s.graceDays };
  });

describe('properties', { timeout: 60_000 }, () => {
  it('read on any later day, the stored facts say what a full replay says', () => {
    fc.assert(
      fc.property(history, fc.array(fc.integer({ min: 0, max: 900 }), { maxLength: 4 }), (h, offsets) => {
        const facts = deriveLoanFacts(h.records, h.asOf);
        const dueDates = deriveLoanPosition(h.records, h.asOf).schedule.map((row) => row.dueDate);
        const days = new Set([h.asOf, ...offsets.map((d) => addDays(h.asOf, d))]);
        for (const due of dueDates) {
          for (const shift of [-1, 0, 1, h.graceDays, h.graceDays + 1, 31]) {
            const day = addDays(due, shift);
            if (day >= h.asOf) days.add(day);
          }
        }
        for (const day of days) {
          expect(readFacts(facts, day), `${day} (facts of ${h.asOf})`).toEqual(fromPosition(h.records, day));
        }
      }),
      { numRuns: 300 },
    );
  });
});
