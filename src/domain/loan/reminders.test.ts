import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonthsClamped, daysBetween } from './calendar';
import {
  decideReminder,
  defaultReminderRules,
  isQuietHour,
  type PastReminder,
  type ReminderDecision,
  type ReminderRules,
  reminderText,
} from './reminders';
import { deriveLoanPosition, isNothingOwed, type LoanRecords, type RepaymentRecord } from './repayments';
import { type LoanStatus, loanStatuses } from './status';

const PAID_ON = '2026-01-15';
const loan = (repayments: RepaymentRecord[] = []): LoanRecords => ({
  termMonths: 12,
  monthlyRateBp: 200,
  disbursements: [{ amountMinor: 10_000_000, paidOn: PAID_ON }],
  repayments,
  rules: { graceDays: 3, lateChargeMonthlyBp: 0 },
});
const FIRST_DUE = '2026-02-15';
const PAYMENT = 945_596;

function decide(
  today: string,
  options: {
    past?: PastReminder[];
    hour?: number;
    status?: LoanStatus;
    records?: LoanRecords;
    rules?: ReminderRules;
  } = {},
) {
  return decideReminder({
    status: options.status ?? 'approved',
    position: deriveLoanPosition(options.records ?? loan(), today),
    past: options.past ?? [],
    today,
    hour: options.hour ?? 10,
    rules: options.rules ?? defaultReminderRules,
  });
}

describe('quiet hours', () => {
  it('are 22:00 to 06:00', () => {
    expect([22, 23, 0, 3, 5].map(isQuietHour)).toEqual([true, true, true, true, true]);
    expect([6, 9, 12, 21].map(isQuietHour)).toEqual([false, false, false, false]);
  });
});

describe('which reminder a loan gets on a day', () => {
  it('reminds three days before a due date, with the instalment amount, once', () => {
    expect(decide(addDays(FIRST_DUE, -4))).toBeNull();
    const before = decide(addDays(FIRST_DUE, -3));
    expect(before).toEqual({
      kind: 'before_due',
      dueDate: FIRST_DUE,
      amountMinor: PAYMENT,
      daysPastDue: 0,
      sinceDate: FIRST_DUE,
    });
    const past = [{ kind: 'before_due' as const, dueDate: FIRST_DUE, day: addDays(FIRST_DUE, -3) }];
    expect(decide(addDays(FIRST_DUE, -2), { past })).toBeNull();
    // A missed run is caught up later in the window.
    expect(decide(addDays(FIRST_DUE, -1))?.kind).toBe('before_due');
  });

  it('reminds on the due date, or within grace when the day was missed, then not again', () => {
    expect(decide(FIRST_DUE)).toMatchObject({ kind: 'due', dueDate: FIRST_DUE, amountMinor: PAYMENT });
    expect(decide(addDays(FIRST_DUE, 2))).toMatchObject({ kind: 'due', daysPastDue: 2 });
    const past = [{ kind: 'due' as const, dueDate: FIRST_DUE, day: FIRST_DUE }];
    expect(decide(addDays(FIRST_DUE, 1), { past })).toBeNull();
  });

  it('reminds when overdue after the grace days, then weekly, at most four times', () => {
    const past: PastReminder[] = [{ kind: 'due', dueDate: FIRST_DUE, day: FIRST_DUE }];
    expect(decide(addDays(FIRST_DUE, 3), { past })).toBeNull();
    const overdue: ReminderDecision[] = [];
    for (let offset = 4; offset < 60; offset++) {
      const today = addDays(FIRST_DUE, offset);
      const decision = decide(today, { past });
      if (!decision) continue;
      if (decision.kind === 'overdue') {
        expect(decision.daysPastDue).toBe(offset);
        expect(decision.sinceDate).toBe(FIRST_DUE);
        overdue.push(decision);
      }
      past.push({ kind: decision.kind, dueDate: decision.dueDate, day: today });
    }
    const aboutFirst = overdue.filter((d) => d.dueDate === FIRST_DUE);
    expect(aboutFirst.map((d) => d.daysPastDue)).toEqual([4, 11, 18, 25]);
    expect(aboutFirst.map((d) => d.amountMinor)).toEqual([PAYMENT, PAYMENT, PAYMENT, PAYMENT]);
    // The next instalment falls due (its own due-day reminder), then overdue: a new series about it, for
    // everything overdue, still counted from the oldest unpaid due date.
    const second = addMonthsClamped(FIRST_DUE, 1);
    expect(past.find((r) => r.dueDate === second && r.kind === 'due')?.day).toBe(second);
    const aboutSecond = overdue.filter((d) => d.dueDate === second);
    expect(aboutSecond[0]).toMatchObject({ daysPastDue: daysBetween(FIRST_DUE, addDays(second, 4)) });
    expect(aboutSecond[0]!.amountMinor).toBe(PAYMENT * 2);
  });

  it('sends nothing when nothing is due, in quiet hours, twice a day, or for a loan not running', () => {
    expect(decide('2026-01-20')).toBeNull();
    expect(decide(FIRST_DUE, { hour: 23 })).toBeNull();
    expect(decide(FIRST_DUE, { hour: 5 })).toBeNull();
    expect(decide(FIRST_DUE, { hour: 6 })).not.toBeNull();
    expect(decide(FIRST_DUE, { hour: 21 })).not.toBeNull();
    expect(
      decide(FIRST_DUE, { past: [{ kind: 'before_due', dueDate: FIRST_DUE, day: FIRST_DUE }] }),
    ).toBeNull();
    for (const status of ['closed', 'pending', 'rejected'] as const) {
      expect(decide(FIRST_DUE, { status })).toBeNull();
    }
    expect(decide(FIRST_DUE, { status: 'on_hold' })).not.toBeNull();
    // Paid ahead in full: nothing is due on the due date.
    const paidAhead = loan([{ id: 'r1', amountMinor: PAYMENT, receivedOn: '2026-02-01' }]);
    expect(decide(FIRST_DUE, { records: paidAhead })).toBeNull();
    // Paid off: nothing at all.
    const paidOff = loan([{ id: 'r1', amountMinor: 10_200_000, receivedOn: '2026-02-01' }]);
    expect(deriveLoanPosition(paidOff, FIRST_DUE).payoffMinor).toBe(0);
    expect(decide(FIRST_DUE, { records: paidOff })).toBeNull();
    // Before any payout there is no schedule.
    expect(decide(FIRST_DUE, { records: { ...loan(), disbursements: [] } })).toBeNull();
  });

  it('can be switched off: no "coming up" with 0 days before, no overdue with a cap of 0', () => {
    const rules = { daysBefore: 0, overdueEveryDays: 7, overdueMaxPerInstalment: 0 };
    expect(decide(addDays(FIRST_DUE, -1), { rules })).toBeNull();
    const past: PastReminder[] = [{ kind: 'due', dueDate: FIRST_DUE, day: FIRST_DUE }];
    expect(decide(addDays(FIRST_DUE, 4), { rules, past })).toBeNull();
  });

  it('refuses a position of another day', () => {
    expect(() =>
      decideReminder({
        status: 'approved',
        position: deriveLoanPosition(loan(), FIRST_DUE),
        past: [],
        today: addDays(FIRST_DUE, 1),
        hour: 10,
        rules: defaultReminderRules,
      }),
    ).toThrow(/as of/);
  });
});

describe('the text', () => {
  const context = {
    language: 'en' as const,
    loanNumber: 'HL-26-000007',
    channels: [
      { name: 'GCash', accountDetails: '0917 123 4567 (Hiram Lending)' },
      { name: 'Cash at the office', accountDetails: null },
    ],
    supportEmail: 'help@lender.example',
  };
  const base: ReminderDecision = {
    kind: 'before_due',
    dueDate: '2026-02-15',
    amountMinor: 945_596,
    daysPastDue: 0,
    sinceDate: '2026-02-15',
  };

  it('states the amount, the due date and how to pay, with the loan number as the reference', () => {
    expect(reminderText(base, context)).toBe(
      'Hiram reminder: your payment of ₱9,455.96 for loan HL-26-000007 is due on Feb 15, 2026. ' +
        'Pay with reference HL-26-000007 to GCash 0917 123 4567 (Hiram Lending). ' +
        'If you have already paid, thank you and please ignore this. Questions or trouble paying: help@lender.example.',
    );
    expect(reminderText({ ...base, kind: 'due' }, context)).toContain('is due today, Feb 15, 2026.');
    expect(reminderText({ ...base, kind: 'due', daysPastDue: 2 }, context)).toContain(
      'was due on Feb 15, 2026.',
    );
    expect(
      reminderText({ ...base, kind: 'overdue', dueDate: '2026-03-15', daysPastDue: 30 }, context),
    ).toContain('₱9,455.96 on loan HL-26-000007 is past due, the oldest part since Feb 15, 2026 (30 days).');
    expect(reminderText({ ...base, kind: 'overdue', daysPastDue: 1 }, context)).toContain('(1 day)');
  });

  it('points to support when no channel has account details', () => {
    expect(reminderText(base, { ...context, channels: [] })).toContain(
      'Quote HL-26-000007 as the payment reference; for how to pay, contact help@lender.example.',
    );
  });

  it('never threatens', () => {
    for (const kind of ['before_due', 'due', 'overdue'] as const) {
      const text = reminderText({ ...base, kind, daysPastDue: 40 }, context);
      expect(text).not.toMatch(
        /legal|court|police|arrest|jail|penalt|final|warning|immediately|shame|contacts/i,
      );
    }
  });
});

describe('over a loan’s life (property)', () => {
  const arbitraryRecords = fc
    .record({
      paidOn: fc.integer({ min: 0, max: 700 }).map((d) => addDays('2025-01-01', d)),
      termMonths: fc.constantFrom(6, 12),
      graceDays: fc.integer({ min: 0, max: 7 }),
      payments: fc.array(
        fc.record({
          offset: fc.integer({ min: 0, max: 420 }),
          amountMinor: fc.integer({ min: 1, max: 3_000_000 }),
        }),
        { maxLength: 8 },
      ),
    })
    .map(
      ({ paidOn, termMonths, graceDays, payments }): LoanRecords => ({
        termMonths,
        monthlyRateBp: 200,
        disbursements: [{ amountMinor: 5_000_000, paidOn }],
        repayments: payments
          .map((p, i) => ({ id: `r${i}`, amountMinor: p.amountMinor, receivedOn: addDays(paidOn, p.offset) }))
          .sort((a, b) => a.receivedOn.localeCompare(b.receivedOn)),
        rules: { graceDays, lateChargeMonthlyBp: 300 },
      }),
    );
  const arbitraryRules = fc.record({
    daysBefore: fc.integer({ min: 0, max: 7 }),
    overdueEveryDays: fc.integer({ min: 1, max: 14 }),
    overdueMaxPerInstalment: fc.integer({ min: 0, max: 5 }),
  });

  it('never two a day, never at night, never for a loan not running or owing nothing, never without cause', () => {
    fc.assert(
      fc.property(
        arbitraryRecords,
        arbitraryRules,
        fc.array(fc.integer({ min: 0, max: 23 }), { minLength: 2, maxLength: 3 }),
        fc.constantFrom<LoanStatus>(...loanStatuses),
        fc.integer({ min: 2, max: 10 }),
        (records, rules, hours, status, missEvery) => {
          const start = records.disbursements[0]!.paidOn;
          const end = addDays(addMonthsClamped(start, records.termMonths), 60);
          const past: PastReminder[] = [];
          for (let today = start, day = 0; today <= end; today = addDays(today, 1), day++) {
            // The job does not run on some days (a deploy, an outage).
            if (day % missEvery === missEvery - 1) continue;
            const position = deriveLoanPosition(records, today);
            for (const hour of hours) {
              const decision = decideReminder({ status, position, past, today, hour, rules });
              if (!decision) continue;
              expect(isQuietHour(hour)).toBe(false);
              expect(['approved', 'on_hold']).toContain(status);
              expect(isNothingOwed(position)).toBe(false);
              expect(past.some((r) => r.day === today)).toBe(false);
              expect(decision.amountMinor).toBeGreaterThan(0);
              const row = position.schedule.find((r) => r.dueDate === decision.dueDate);
              expect(row?.unpaidMinor).toBeGreaterThan(0);
              const same = past.filter((r) => r.kind === decision.kind && r.dueDate === decision.dueDate);
              if (decision.kind === 'overdue') {
                expect(row?.status).toBe('overdue');
                expect(same.length).toBeLessThan(rules.overdueMaxPerInstalment);
                for (const r of same)
                  expect(daysBetween(r.day, today)).toBeGreaterThanOrEqual(rules.overdueEveryDays);
              } else {
                expect(same).toEqual([]);
                if (decision.kind === 'before_due') {
                  expect(daysBetween(today, decision.dueDate)).toBeGreaterThan(0);
                  expect(daysBetween(today, decision.dueDate)).toBeLessThanOrEqual(rules.daysBefore);
                } else {
                  expect(daysBetween(decision.dueDate, today)).toBeGreaterThanOrEqual(0);
                  expect(daysBetween(decision.dueDate, today)).toBeLessThanOrEqual(position.graceDays);
                }
              }
              past.push({ kind: decision.kind, dueDate: decision.dueDate, day: today });
            }
          }
        },
      ),
      // Each run replays a loan day by day for up to two years: few runs, each thorough.
      { numRuns: 25 },
    );
  }, 60_000);

  it('nothing on a day that already had one, whatever is due', () => {
    fc.assert(
      fc.property(
        arbitraryRecords,
        arbitraryRules,
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom(...(['before_due', 'due', 'overdue'] as const)),
        (records, rules, offset, kind) => {
          const today = addDays(records.disbursements[0]!.paidOn, offset);
          const position = deriveLoanPosition(records, today);
          const past = [{ kind, dueDate: '2000-01-01', day: today }];
          expect(decideReminder({ status: 'approved', position, past, today, hour: 12, rules })).toBeNull();
        },
      ),
    );
  });
});
