/**
 * A long loan's replay and statement (issue #31): a 60-month loan with 120 events — three payouts with fees,
 * 112 repayments (on time, early, late, in part, above the instalment), four reversals, a refund of money
 * held — replayed as of its last day and its statement of account built and rendered to PDF, as
 * GET /api/staff/loans/:id/statement.pdf does after reading the records. Timed over many runs in this process
 * (warm, as a server is), p50 / p95 / p99 printed beside a reference measured in the same run: the same for a
 * 12-month loan with one payout and no repayment.
 */
import { loadavg } from 'node:os';
import { addDays, addMonthsClamped } from '../src/domain/loan/calendar';
import {
  buildStatementOfAccount,
  deriveLoanPosition,
  type LoanRecords,
  type RepaymentRecord,
} from '../src/domain/loan/repayments';
import { renderStatementPdf } from '../src/server/features/statements/render-statement';
import { statementDocument } from '../src/server/features/statements/statement-text';

const RUNS = 60;
/** Issue #31's size: a 60-month loan with 120 events. */
const EVENTS = 120;

function longLoan(): { records: LoanRecords; asOf: string } {
  const start = '2024-01-31';
  const repayments: RepaymentRecord[] = [];
  // Repayments around each due date: on it, days early, days late, split in two, one above the instalment.
  for (let k = 1; repayments.length < 112; k++) {
    const due = addMonthsClamped(start, k);
    const shift = [0, -9, 4, 0, -26, 11][k % 6] ?? 0;
    const amountMinor = k % 7 === 0 ? 400_000 : 255_000;
    repayments.push({ id: `r${k}a`, amountMinor, receivedOn: addDays(due, shift) });
    if (k % 3 === 0 && repayments.length < 112)
      repayments.push({ id: `r${k}b`, amountMinor: 60_000, receivedOn: addDays(due, shift + 2) });
  }
  // Four of them reversed a few days later (bounced transfers).
  for (const i of [10, 40, 70, 100]) {
    const r = repayments[i] as RepaymentRecord;
    repayments[i] = { ...r, reversedOn: addDays(r.receivedOn, 3) };
  }
  const disbursements = [
    { amountMinor: 6_000_000, paidOn: start, feeMinor: 110_000 },
    { amountMinor: 2_500_000, paidOn: '2024-04-15', feeMinor: 25_000 },
    { amountMinor: 1_500_000, paidOn: '2024-09-02', feeMinor: 15_000 },
  ];
  const records: LoanRecords = {
    termMonths: 60,
    monthlyRateBp: 200,
    disbursements,
    repayments,
    refunds: [{ amountMinor: 5_000, refundedOn: '2028-12-20' }],
    rules: { graceDays: 3, lateChargeMonthlyBp: 300 },
  };
  const events = disbursements.length + repayments.length + 4 + 1;
  if (events !== EVENTS) throw new Error(`the bench loan has ${events} events, not ${EVENTS}`);
  return { records, asOf: addMonthsClamped(start, 60) };
}

function shortLoan(): { records: LoanRecords; asOf: string } {
  return {
    records: {
      termMonths: 12,
      monthlyRateBp: 200,
      disbursements: [{ amountMinor: 10_000_000, paidOn: '2025-01-31' }],
      repayments: [],
    },
    asOf: '2025-01-31',
  };
}

async function statementOf({ records, asOf }: { records: LoanRecords; asOf: string }) {
  const position = deriveLoanPosition(records, asOf);
  const document = statementDocument(
    {
      lenderName: 'Hiram',
      supportEmail: 'support@example.com',
      loan: {
        loanNumber: 'HL-26-000001',
        borrowerName: 'Maria Santos',
        status: 'approved',
        approvedMinor: 10_000_000,
        termMonths: records.termMonths,
        monthlyRateBp: records.monthlyRateBp,
      },
      statement: buildStatementOfAccount(records, asOf),
      payoffMinor: position.payoffMinor,
      dueNowMinor: position.amountDueNowMinor,
      references: new Map(records.repayments.map((r) => [r.id, `REF-${r.id}`])),
    },
    'en',
  );
  return renderStatementPdf(document, { createdAt: new Date('2029-01-31T00:00:00Z') });
}

async function time(loan: { records: LoanRecords; asOf: string }) {
  await statementOf(loan); // warm: fonts loaded, code compiled
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    bytes = (await statementOf(loan)).length;
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const at = (p: number) => ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)] as number;
  return { p50: at(50), p95: at(95), p99: at(99), bytes };
}

export async function benchReplay(log: (line: string) => void) {
  log(
    `\n=== a 60-month loan with ${EVENTS} events: replay + statement PDF (${RUNS} runs, load ${loadavg()[0]!.toFixed(2)})`,
  );
  const reference = await time(shortLoan());
  const long = await time(longLoan());
  log('| loan | p50 ms | p95 ms | p99 ms | × reference p95 | PDF KiB |');
  log('|---|---|---|---|---|---|');
  for (const [name, r] of [
    ['reference: 12 months, one payout, no repayment', reference],
    [`60 months, ${EVENTS} events`, long],
  ] as const) {
    log(
      `| ${name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p95 / reference.p95).toFixed(2)} | ${(r.bytes / 1024).toFixed(0)} |`,
    );
  }
}
