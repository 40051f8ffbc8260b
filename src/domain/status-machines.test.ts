import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { disbursementStatuses } from './loan/disbursement-status';
import { userStatuses } from './roles';
import { complaintStatuses } from './schemas/complaints';
import { termsChangeStatuses } from './schemas/terms';
import { accountMachine, complaintMachine, disbursementMachine, termsChangeMachine } from './status-machines';

/**
 * Every (event, from → to) each record allows, and who makes it; every other triple is refused with the
 * record's own code. Widening a move (say, a failed payout marked paid) fails here.
 */
const cases = [
  {
    name: 'payouts',
    machine: disbursementMachine,
    statuses: disbursementStatuses,
    code: 'DISBURSEMENT_ALREADY_DECIDED',
    allowed: ['mark_paid: requested→paid (staff)', 'mark_failed: requested→failed (staff)'],
  },
  {
    name: 'terms changes',
    machine: termsChangeMachine,
    statuses: termsChangeStatuses,
    code: 'TERMS_CHANGE_NOT_OPEN',
    allowed: [
      'accept: proposed→accepted (borrower)',
      'decline: proposed→declined (borrower)',
      'withdraw: proposed→withdrawn (staff)',
    ],
  },
  {
    name: 'complaints',
    machine: complaintMachine,
    statuses: complaintStatuses,
    code: 'COMPLAINT_RESOLVED',
    allowed: [
      'reply: received→in_progress (staff)',
      'reply: in_progress→in_progress (staff)',
      'assign: received→in_progress (staff)',
      'assign: in_progress→in_progress (staff)',
      'resolve: received→resolved (staff)',
      'resolve: in_progress→resolved (staff)',
    ],
  },
  {
    name: 'accounts',
    machine: accountMachine,
    statuses: userStatuses,
    code: 'ACCOUNT_DEACTIVATED',
    codes: { reactivate: 'USER_ALREADY_ACTIVE' },
    allowed: [
      'close: active→deactivated (borrower)',
      'deactivate: active→deactivated (staff)',
      'deactivate: deactivated→deactivated (staff)',
      'reactivate: deactivated→active (staff)',
    ],
  },
] as const;

describe.each(cases)('the moves of $name', (c) => {
  const { machine, statuses, code, allowed } = c;
  const codes: Record<string, string> = 'codes' in c ? c.codes : {};
  const m = machine as unknown as {
    eventNames: string[];
    events: Record<string, { to: string; by: string }>;
    canApply: (event: string, from: string) => boolean;
    statusAfter: (event: string, from: string) => string;
  };
  it('holds exactly the allowed (event, from, to) triples', () => {
    const found: string[] = [];
    for (const event of m.eventNames)
      for (const from of statuses)
        for (const to of statuses)
          if (m.canApply(event, from) && m.events[event]!.to === to)
            found.push(`${event}: ${from}→${to} (${m.events[event]!.by})`);
    expect(found.sort()).toEqual([...allowed].sort());
  });

  it('refuses every other move with its own code, never a plain error', () => {
    for (const event of m.eventNames)
      for (const from of statuses) {
        if (m.canApply(event, from)) {
          expect(m.statusAfter(event, from)).toBe(m.events[event]!.to);
          continue;
        }
        try {
          m.statusAfter(event, from);
          expect.unreachable(`${event} from ${from}`);
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe(codes[event] ?? code);
        }
      }
  });
});
