import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonthsClamped } from '../../../domain/loan/calendar';
import { seedApplication } from '../../test-support/seed';
import { createTestApp, type TestApp } from '../../test-support/test-app';
import { getPortfolioSummary } from './get-portfolio-summary';

/**
 * The month's paid-out fees on the dashboard come from fees kept per UTC day (migration 040) plus the two
 * part-days at the month's ends. Whatever the lender's time zone (a whole-hour offset, a half-hour one, one
 * that changes for summer, UTC itself), they equal the sum over the month's instants, payouts decided on the
 * very first and last millisecond of the month included and the one at its end excluded; a payout that
 * stops being paid takes its fee back out.
 */
let t: TestApp;
let loanId: string;
const zones = ['Asia/Manila', 'Asia/Kolkata', 'America/St_Johns', 'UTC'];
const months = ['2026-03-01', '2026-10-01', '2026-11-01', '2026-12-01'];

beforeAll(async () => {
  t = await createTestApp();
  const b = await t.createUser({ role: 'borrower' });
  loanId = await seedApplication(t.db, { borrowerId: b.user.id, phone: b.user.phone!, status: 'approved' });
});
afterAll(() => t.close());

/** A paid payout with `fee` decided at the instant `at` (SQL). */
async function paidAt(at: ReturnType<typeof sql>, fee: number) {
  await sql`insert into disbursements (application_id, amount, fee_minor, bank_name, account_number, code_verified,
      status, decided_at, reference)
    values (${loanId}, 100000, ${fee}, 'GCash', '09170000000', true, 'paid', ${at}, ${`PF-${fee}`})`.execute(
    t.db,
  );
}

/** The fees as the dashboard read them before migration 040: every paid payout of the month. */
async function directFees(zone: string, monthStart: string): Promise<number> {
  const instant = (day: string) => sql`(${day}::date)::timestamp at time zone ${zone}`;
  const { rows } = await sql<{ fees: string }>`select coalesce(sum(fee_minor), 0) as fees from disbursements
    where status = 'paid' and decided_at >= ${instant(monthStart)}
      and decided_at < ${instant(addMonthsClamped(monthStart, 1))}`.execute(t.db);
  return Number(rows[0]!.fees);
}

async function expectSameFees() {
  for (const zone of zones) {
    const deps = { ...t.deps, config: { ...t.deps.config, timeZone: zone } };
    for (const month of months) {
      const asOf = `${month.slice(0, 8)}17`;
      const summary = await getPortfolioSummary(deps, asOf);
      expect(summary.feesThisMonthMinor, `${zone} ${month}`).toBe(await directFees(zone, month));
    }
  }
}

describe("the month's paid-out fees", () => {
  it('equal the sum over the month in the lender’s zone, at its first and last millisecond too', async () => {
    let fee = 1;
    for (const zone of zones)
      for (const month of months)
        for (const day of [month, addMonthsClamped(month, 1)])
          for (const offset of ['-1 millisecond', '0 seconds', '1 millisecond', '5 hours', '-5 hours']) {
            fee += 1;
            await paidAt(sql`(${day}::date)::timestamp at time zone ${zone} + ${offset}::interval`, fee);
          }
    // And every seven hours across the months, whatever zone reads them.
    await sql`insert into disbursements (application_id, amount, fee_minor, bank_name, account_number,
        code_verified, status, decided_at, reference)
      select ${loanId}, 100000, 1000 + g, 'GCash', '09170000000', true, 'paid',
             timestamptz '2026-02-20 00:00Z' + g * interval '7 hours', 'PF-G-' || g
      from generate_series(0, 1200) g`.execute(t.db);
    await expectSameFees();
    expect(await directFees('Asia/Manila', '2026-11-01')).toBeGreaterThan(0);

    // Payouts that stop being paid take their fees back out; one that is paid later adds it.
    await sql`update disbursements set status = 'failed', failure_reason = 'Bounced'
      where reference like 'PF-G-%' and right(reference, 1) in ('3', '7')`.execute(t.db);
    await sql`update disbursements set decided_at = decided_at + interval '9 days'
      where reference like 'PF-G-%' and right(reference, 1) = '5'`.execute(t.db);
    await expectSameFees();
    const { rows } = await sql<{ stored: string; recomputed: string }>`
      select (select coalesce(sum(amount), 0) from dashboard_figures where figure = 'paid_fees') as stored,
             (select coalesce(sum(fee_minor), 0) from disbursements where status = 'paid') as recomputed`.execute(
      t.db,
    );
    expect(rows[0]!.stored).toBe(rows[0]!.recomputed);
  });
});
