import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type autocannon from 'autocannon';
import { type Kysely, sql } from 'kysely';
import { todayIn } from '../src/domain/date-text';
import { defaultRepaymentRules, previewWithdrawal } from '../src/domain/loan/repayments';
import { codeHash } from '../src/server/auth/verification-codes';
import type { Database } from '../src/server/db/schema';
import { planDigest } from '../src/server/features/wallet/withdrawal-plan';
import { burst, load, log, percentile, type Row, SECRET } from './common';
import { seededIds } from './seed';
import { sessionFor } from './servers';

export interface WithdrawalPlan {
  single: { token: string; csrf: string; amount: number; loanId: string };
  mixed: { token: string; csrf: string; amount: number; loanId: string }[];
}

export const CODE = '246810';

/** Codes and sessions written straight into the database, so the race measures withdrawals, not logins. */
export async function prepareWithdrawals(db: Kysely<Database>, rows: number): Promise<WithdrawalPlan> {
  // Approved rows are those with g % 5 in {2, 3}.
  const approvedG = (i: number) => 5 * i + 2;
  const prepare = async (g: number, amountMinor: number) => {
    const phone = seededIds.phone(g);
    const loanId = seededIds.application(g);
    // The code is bound to the plan the borrower would have been shown (no payouts yet: the first one).
    const plan = planDigest(
      previewWithdrawal(
        {
          termMonths: [6, 12, 18, 24][g % 4]!,
          monthlyRateBp: 200,
          feesMinor: 0,
          disbursements: [],
          repayments: [],
          rules: defaultRepaymentRules,
        },
        { amountMinor, feeMinor: 0, payoutOn: todayIn('Asia/Manila') },
      ),
    );
    const context = `loan=${loanId};amount=${amountMinor};to=GCash|0917${String(g).padStart(7, '0')};plan=${plan}`;
    const { token, row } = sessionFor(await userIdOf(db, g));
    return {
      code: {
        phone,
        purpose: 'withdrawal' as const,
        context,
        code_hash: codeHash(SECRET, { phone, purpose: 'withdrawal', context }, CODE),
        expires_at: sql<Date>`now() + interval '1 hour'`,
      },
      session: row,
      borrower: { token, csrf: row.csrf_token, amount: amountMinor / 100, loanId },
    };
  };
  const single = await prepare(approvedG(1), 100_000);
  await db.insertInto('verification_codes').values(single.code).execute();
  await db.insertInto('sessions').values(single.session).execute();

  const loans = Math.min(10_000, Math.floor(rows / 5) - 20);
  const mixed: WithdrawalPlan['mixed'] = [];
  for (let start = 0; start < loans; start += 1000) {
    const batch = [];
    for (let i = start; i < Math.min(loans, start + 1000); i++) {
      const g = approvedG(i + 10);
      const approvedMinor = (1 + (g % 30)) * 1_000_000;
      // Every 7th asks for more than the loan: refused with "Amount exceeds balance".
      batch.push(await prepare(g, i % 7 === 0 ? approvedMinor + 100 : 100_000 * (1 + (i % 50))));
    }
    await db
      .insertInto('verification_codes')
      .values(batch.map((b) => b.code))
      .execute();
    await db
      .insertInto('sessions')
      .values(batch.map((b) => b.session))
      .execute();
    mixed.push(...batch.map((b) => b.borrower));
  }
  return { single: single.borrower, mixed };
}

export async function runWithdrawals(url: string, cookieName: string, plan: WithdrawalPlan) {
  const results: Row[] = [];
  const post = (b: WithdrawalPlan['single']) => ({
    'content-type': 'application/json',
    cookie: `${cookieName}=${b.token}`,
    'x-csrf-token': b.csrf,
  });

  // 200 concurrent withdrawals against one loan, all carrying its one valid code: exactly one may win.
  const { answers, times, seconds } = await burst(url, () =>
    fetch(`${url}/api/wallet/withdrawals`, {
      method: 'POST',
      headers: post(plan.single),
      body: JSON.stringify({ amount: plan.single.amount, code: CODE, idempotencyKey: randomUUID() }),
    }),
  );
  const singleCreated = answers.filter((status) => status >= 200 && status < 300).length;
  results.push({
    scenario: 'POST withdrawals ×200 at once, one loan',
    // The balance covers one of them: exactly one may be created.
    allOk: singleCreated === 1,
    rps: 200 / seconds,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    ok: `${singleCreated} created`,
    loadAverage: loadavg()[0]!,
  });

  // Mixed withdrawals across up to 10,000 loans (some over the balance), through autocannon.
  let next = 0;
  let mixedCreated = 0;
  const row = await load(`POST withdrawals, ${plan.mixed.length.toLocaleString('en')} loans`, url, {
    amount: plan.mixed.length,
    connections: 50,
    // A request that times out may still commit: wait long enough that every 2xx is counted.
    timeout: 120,
    requests: [
      {
        method: 'POST',
        path: '/api/wallet/withdrawals',
        setupRequest: (req: autocannon.Request) => {
          const b = plan.mixed[next++ % plan.mixed.length]!;
          return {
            ...req,
            headers: post(b),
            body: JSON.stringify({ amount: b.amount, code: CODE, idempotencyKey: randomUUID() }),
          };
        },
      },
    ],
    expect: (status) => {
      if (status === 201) mixedCreated += 1;
      return status === 201 || status === 400;
    },
  });
  row.ok = `${mixedCreated} created; ${row.ok} 201 or 400`;
  results.push(row);
  return { results, singleCreated, mixedCreated };
}

export const userIds = new Map<number, string>();
export async function userIdOf(db: Kysely<Database>, g: number): Promise<string> {
  if (!userIds.has(g)) {
    const r = await db
      .selectFrom('applications')
      .select('borrower_id')
      .where('id', '=', seededIds.application(g))
      .executeTakeFirstOrThrow();
    userIds.set(g, r.borrower_id);
  }
  return userIds.get(g)!;
}

/** requested + paid ≤ approved for every loan, and exactly one row per 2xx answer. */
export async function checkInvariants(
  db: Kysely<Database>,
  loanIds: string[],
  created: number,
): Promise<boolean> {
  const { rows } = await sql<{ over: number; count: number }>`
    select
      (select count(*) from applications a
        where a.id = any(${loanIds}::uuid[])
          and (select coalesce(sum(d.amount), 0) from disbursements d
               where d.application_id = a.id and d.status in ('requested', 'paid')) > a.approved_amount) as over,
      (select count(*) from disbursements where application_id = any(${loanIds}::uuid[])) as count`.execute(
    db,
  );
  const { over, count } = rows[0]!;
  const verdict = Number(over) === 0 && Number(count) === created ? 'holds' : 'BROKEN';
  log(
    `   invariant: loans over their approved amount = ${over}; rows = ${count}, 2xx answers = ${created} → ${verdict}`,
  );
  if (verdict !== 'holds') process.exitCode = 1;
  return verdict === 'holds';
}

/**
 * A race's floors on this machine, on warm connections: 200 × GET /api/health at once (the client, HTTP and
 * the machine) and 200 × GET /api/me signed in (plus a session read from the database each).
 */
export async function raceFloors(url: string, officer: { cookie: string }): Promise<Row[]> {
  const floors: Row[] = [];
  for (const [scenario, send] of [
    ["GET /api/health ×200 at once (a race's floor)", () => fetch(`${url}/api/health`)],
    [
      'GET /api/me ×200 at once, signed in',
      () => fetch(`${url}/api/me`, { headers: { cookie: officer.cookie } }),
    ],
  ] as const) {
    const { answers, times, seconds } = await burst(url, send);
    floors.push({
      scenario,
      allOk: answers.every((status) => status === 200),
      rps: answers.length / seconds,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
      ok: `${answers.filter((status) => status === 200).length} ok`,
      loadAverage: loadavg()[0]!,
    });
  }
  return floors;
}

/** 200 simultaneous decisions (approve or reject) on one pending application: exactly one may win. */
export async function runDecisions(url: string, officer: { cookie: string; csrf: string }, id: string) {
  const headers = {
    'content-type': 'application/json',
    cookie: officer.cookie,
    'x-csrf-token': officer.csrf,
  };
  const { answers, times, seconds } = await burst(url, (i) => {
    const [action, body] =
      i % 3 === 0 ? ['reject', { reason: `bench ${i}` }] : ['approve', { creditScore: 500 }];
    return fetch(`${url}/api/staff/applications/${id}/${action}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
  });
  const won = answers.filter((status) => status === 200).length;
  const lost = answers.filter((status) => status === 409).length;
  return {
    won,
    lost,
    row: {
      scenario: 'POST decisions ×200 at once, one application',
      allOk: won === 1 && lost === 199,
      rps: 200 / seconds,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
      ok: `${won} won, ${lost} already decided`,
      loadAverage: loadavg()[0]!,
    },
  };
}

/**
 * Issue #35's judgement of both races: exactly one winner (and, for the withdrawal, the balance kept) and
 * p99 ≤ 150 ms, each with its figure beside the floor of the same run (`raceFloors`).
 */
export function raceVerdicts(
  decisions: Awaited<ReturnType<typeof runDecisions>>,
  withdrawals: Awaited<ReturnType<typeof runWithdrawals>>,
  balanceKept: boolean,
  floors: Row[],
) {
  return [
    { row: decisions.row, one: decisions.won === 1 && decisions.lost === 199 },
    { row: withdrawals.results[0]!, one: withdrawals.singleCreated === 1 && balanceKept },
  ].map(({ row, one }) => ({
    row,
    pass: one && row.p99 <= 150,
    figure: `p99 ${row.p99.toFixed(0)} ms, ${row.ok}${one ? ' (exactly one winner)' : ' (NOT exactly one winner)'}; floor GET /api/health ×200 p99 ${floors[0]!.p99.toFixed(0)} ms; load ${row.loadAverage?.toFixed(2)}`,
  }));
}
