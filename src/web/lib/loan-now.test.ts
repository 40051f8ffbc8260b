import { describe, expect, it } from 'vitest';
import { overduePosition } from '../test/loan-position';
import { loanNow } from './loan-now';

const position = overduePosition;
const allPaid = position.schedule.map((row) => ({ ...row, status: 'paid' as const, unpaidMinor: 0 }));

describe('loanNow', () => {
  it('overdue: the one figure, days late from the oldest unpaid due date, the next instalment after it', () => {
    expect(loanNow(position, null)).toMatchObject({
      kind: 'overdue',
      amountMinor: position.amountDueNowMinor,
      daysLate: 10,
      since: '2025-04-02',
      payBy: null,
      instalments: [{ number: 1, unpaidMinor: 4_150_495, overdue: true }],
      after: { number: 2, dueDate: '2025-05-02' },
    });
  });

  it('owing with no instalment left (a refund a reversal made owed again): the payoff, not "paid in full"', () => {
    const owing = { ...position, amountDueNowMinor: 0, payoffMinor: 12_345, schedule: allPaid };
    expect(loanNow(owing, null)).toEqual({ kind: 'owing', amountMinor: 12_345 });
  });

  it('nothing owed: paid in full, on the day given', () => {
    const paid = { ...position, amountDueNowMinor: 0, payoffMinor: 0, schedule: allPaid };
    expect(loanNow(paid, 'Apr 20, 2025')).toEqual({ kind: 'paidInFull', on: 'Apr 20, 2025' });
  });
});
