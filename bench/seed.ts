import { type Kysely, type RawBuilder, sql } from 'kysely';
import { loanTermsOf } from '../src/domain/loan/loan-terms';
import { defaultRepaymentRules } from '../src/domain/loan/repayments';
import { buildSchedule } from '../src/domain/loan/schedule';
import { defaultLoanProduct } from '../src/domain/loan/terms';
import { DEFAULT_PRIVACY_NOTICE_VERSION } from '../src/server/config';
import type { Database } from '../src/server/db/schema';

/** Every seeded loan is signed under the shipped product's terms (2 % a month, as monthly_rate_bp says). */
const benchTerms = loanTermsOf(defaultLoanProduct, defaultRepaymentRules);

const firstNames = [
  'Maria',
  'Jose',
  'Ana',
  'Juan',
  'Rosa',
  'Pedro',
  'Luz',
  'Carlos',
  'Elena',
  'Ramon',
  'Grace',
  'Mark',
  'Joy',
  'Paolo',
  'Liza',
  'Noel',
  'Cora',
  'Ben',
  'Ivy',
  'Rey',
];
const lastNames = [
  'Santos',
  'Reyes',
  'Cruz',
  'Bautista',
  'Ocampo',
  'Garcia',
  'Mendoza',
  'Torres',
  'Flores',
  'Villanueva',
  'Ramos',
  'Castillo',
  'Aquino',
  'Navarro',
  'Dela Cruz',
  'Gonzales',
  'Lopez',
  'Rivera',
  'Perez',
  'Domingo',
];

/**
 * Seeds `count` borrowers, each with one application (and its four document rows), in batches of SQL
 * generate_series so a million rows take minutes, not hours. Statuses: 40 % pending, 40 % approved,
 * 20 % rejected; submissions spread over the last ~40 days. Ids are derived from the row number, so a
 * benchmark can address any row without reading it first.
 */
export async function seedApplications(
  db: Kysely<Database>,
  count: number,
  passwordHash: string,
  log: (m: string) => void,
) {
  const batch = 50_000;
  const first = sql.raw(`array[${firstNames.map((n) => `'${n}'`).join(',')}]`);
  const last = sql.raw(`array[${lastNames.map((n) => `'${n}'`).join(',')}]`);
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await db.transaction().execute(async (trx) => {
      await sql`
        insert into users (id, phone, password_hash, role, created_at, privacy_notice_version)
        select ${uuidOf(sql`'user' || g`)}, '09' || lpad(g::text, 9, '0'), ${passwordHash}, 'borrower',
               now() - (g % 960) * interval '1 hour', ${DEFAULT_PRIVACY_NOTICE_VERSION}
        from generate_series(${from}::int, ${to}::int) g`.execute(trx);
      await sql`
        insert into documents (id, owner_id, application_id, kind, content_type, size, width, height, sha256, storage_key)
        select ${uuidOf(sql`'doc' || g || k`)}, ${uuidOf(sql`'user' || g`)}, ${uuidOf(sql`'app' || g`)}, k,
               case when k = 'signature' then 'image/png' else 'image/jpeg' end, 1, 1, 1, repeat('0', 64),
               'applications/' || ${uuidOf(sql`'app' || g`)} || '/' || k || '.jpg'
        from generate_series(${from}::int, ${to}::int) g, unnest(array['id_front', 'id_back', 'selfie', 'signature']) k`.execute(
        trx,
      );
      await sql`
        insert into applications (id, loan_number, borrower_id, phone, full_name, id_number, amount, term_months,
          monthly_rate_bp, monthly_payment, company_name, position, income, monthly_expense, address, email,
          contact_name, contact_phone, contact_address, contact_relation, bank_name, account_number,
          doc_id_front, doc_id_back, doc_selfie, doc_signature, disclosure, disclosure_sha256, terms, status,
          credit_score, submitted_at, decided_at, approved_amount, reject_reason)
        select ${uuidOf(sql`'app' || g`)}, 'HL-26-' || lpad(g::text, greatest(6, length(g::text)), '0'),
               ${uuidOf(sql`'user' || g`)},
               '09' || lpad(g::text, 9, '0'),
               (${first})[1 + g % 20] || ' ' || (${last})[1 + (g / 20) % 20],
               'ID-' || g, (1 + g % 30) * 1000000, (array[6, 12, 18, 24])[1 + g % 4], 200, 1785258,
               'Store ' || g, 'Owner', 3000000, 1000000, 'Quezon City', null, 'Contact', '09180000000', 'Quezon City',
               'friend', 'GCash', '0917' || lpad(g::text, 7, '0'),
               ${uuidOf(sql`'doc' || g || 'id_front'`)}, ${uuidOf(sql`'doc' || g || 'id_back'`)},
               ${uuidOf(sql`'doc' || g || 'selfie'`)}, ${uuidOf(sql`'doc' || g || 'signature'`)},
               '{}'::jsonb, repeat('0', 64), ${JSON.stringify(benchTerms)}::jsonb,
               s.status,
               case when s.status = 'approved' then 500 end,
               now() - (g % 960) * interval '1 hour',
               case when s.status <> 'pending' then now() - (g % 900) * interval '1 hour' end,
               case when s.status = 'approved' then (1 + g % 30) * 1000000 end,
               case when s.status = 'rejected' then 'Income could not be verified' end
        from generate_series(${from}::int, ${to}::int) g,
             lateral (select case when g % 5 < 2 then 'pending' when g % 5 < 4 then 'approved' else 'rejected' end as status) s`.execute(
        trx,
      );
    });
    log(`  seeded ${to.toLocaleString('en')} / ${count.toLocaleString('en')}`);
  }
  await sql`select setval('loan_number_seq', ${count + 1})`.execute(db);
  // A steady-state database: autovacuum would have set the visibility map by now (index-only scans).
  await sql`vacuum analyze`.execute(db);
}

/**
 * The repayment era on top of `seedApplications`: about 72 % of approved loans paid out in full (every loan
 * with g % 5 = 3, and g % 10 = 7 above 100,000 — never the loans the withdrawal race uses), 1 to ~22 months
 * ago, each repaid instalment by instalment on its due dates, so the single-payout schedule is exactly what
 * the model replays. By (g / 5) % 100: 80 % have paid everything due, the rest are 1, 2, 3 or 4–6 instalments
 * behind (days past due spread over every bucket). The stored facts (migration 008) are written straight from
 * the same schedule (`buildSchedule`): outstanding = the scheduled balance after the instalments paid, next due
 * = the first unpaid instalment, its full payment, and every unpaid instalment with its payment. `checkSeededFacts` in run.ts replays a sample to prove they
 * are what refreshLoanFacts would write. Payout days and due dates are civil dates in Asia/Manila.
 */
export async function seedRepayments(db: Kysely<Database>, count: number, log: (m: string) => void) {
  const timeZone = 'Asia/Manila';
  await sql`create table bench_schedule (amount bigint, term int, k int, payment bigint, balance_after bigint,
    primary key (amount, term, k))`.execute(db);
  const rows: string[] = [];
  for (let unit = 1; unit <= 30; unit++) {
    for (const term of [6, 12, 18, 24]) {
      const amountMinor = unit * 1_000_000;
      rows.push(`(${amountMinor}, ${term}, 0, null, ${amountMinor})`);
      const schedule = buildSchedule({
        amountMinor,
        termMonths: term,
        monthlyRateBp: 200,
        startDate: '2026-01-01',
      });
      for (const row of schedule) {
        rows.push(`(${amountMinor}, ${term}, ${row.number}, ${row.paymentMinor}, ${row.balanceMinor})`);
      }
    }
  }
  await sql.raw(`insert into bench_schedule values ${rows.join(',')}`).execute(db);
  // Which loans are paid out and how far each is repaid, planned in batches (one statement over a million
  // rows ran for minutes on one connection; at 1 M rows the bench lost that connection mid-statement).
  const planned = (from: number, to: number) => sql`
    select g, ${uuidOf(sql`'app' || g`)} as id, amount, term, paid_on, greatest(0, due - lag) as k_paid
    from (
      select g, amount, term, paid_on,
             (select count(*) from generate_series(1, term) k
               where (paid_on + make_interval(months => k))::date <= today)::int as due,
             case when h < 80 then 0 when h < 88 then 1 when h < 93 then 2 when h < 96 then 3 else 4 + g % 3 end as lag
      from (
        select g, (1 + g % 30)::bigint * 1000000 as amount, (array[6, 12, 18, 24])[1 + g % 4] as term,
               (g / 5) % 100 as h, (now() at time zone ${timeZone})::date as today,
               (now() at time zone ${timeZone})::date
                 - (1 + (g::bigint * 7919) % ((array[6, 12, 18, 24])[1 + g % 4] * 30 - 35))::int as paid_on
        from generate_series(${from}::int, ${to}::int) g
        where g % 5 = 3 or (g % 10 = 7 and g > 100000)
      ) base
    ) planned`;
  await sql`create table bench_loans as ${planned(1, 0)}`.execute(db);
  for (let from = 1; from <= count; from += 100_000) {
    await sql`insert into bench_loans ${planned(from, Math.min(count, from + 99_999))}`.execute(db);
  }
  await sql`create index on bench_loans (g)`.execute(db);
  const batch = 100_000;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await db.transaction().execute(async (trx) => {
      await sql`
        insert into disbursements (application_id, amount, bank_name, account_number, code_verified, status,
          requested_at, decided_at, reference)
        select id, amount, 'GCash', '0917' || lpad(g::text, 7, '0'), true, 'paid',
               (paid_on + time '09:00') at time zone ${timeZone}, (paid_on + time '12:00') at time zone ${timeZone},
               'PAYOUT-' || g
        from bench_loans where g between ${from} and ${to}`.execute(trx);
      await sql`
        insert into repayments (application_id, amount, received_on, channel, reference, source, created_at)
        select l.id, s.payment, (l.paid_on + make_interval(months => j))::date, 'gcash', 'BENCH-' || l.g || '-' || j,
               'webhook', ((l.paid_on + make_interval(months => j))::date + time '15:00') at time zone ${timeZone}
        from bench_loans l, generate_series(1, l.k_paid) j, bench_schedule s
        where l.g between ${from} and ${to} and s.amount = l.amount and s.term = l.term and s.k = j`.execute(
        trx,
      );
      await sql`
        update applications a
        set outstanding_principal_minor = paid.balance_after,
            next_due_on = (l.paid_on + make_interval(months => l.k_paid + 1))::date,
            next_due_minor = next.payment,
            overdue_from = (l.paid_on + make_interval(months => l.k_paid + 1))::date + ${benchTerms.graceDays + 1}::integer,
            facts_as_of = (now() at time zone ${timeZone})::date,
            unpaid_instalments = (
              select jsonb_agg(jsonb_build_array(to_char(l.paid_on + make_interval(months => u.k), 'YYYY-MM-DD'),
                                                 u.payment) order by u.k)
              from bench_schedule u where u.amount = l.amount and u.term = l.term and u.k > l.k_paid)
        from bench_loans l
        join bench_schedule paid on paid.amount = l.amount and paid.term = l.term and paid.k = l.k_paid
        join bench_schedule next on next.amount = l.amount and next.term = l.term and next.k = l.k_paid + 1
        where a.id = l.id and l.g between ${from} and ${to}`.execute(trx);
    });
    log(`  repayment era ${to.toLocaleString('en')} / ${count.toLocaleString('en')}`);
  }
  const { rows: summary } = await sql<{ loans: string; repayments: string; past_due: string }>`
    select (select count(*) from bench_loans) as loans,
           (select coalesce(sum(k_paid), 0) from bench_loans) as repayments,
           (select count(*) from applications where next_due_on < (now() at time zone ${timeZone})::date) as past_due`.execute(
    db,
  );
  log(
    `  paid out ${Number(summary[0]!.loans).toLocaleString('en')} loans, ${Number(summary[0]!.repayments).toLocaleString('en')} repayments, ${Number(summary[0]!.past_due).toLocaleString('en')} past due`,
  );
  await sql`drop table bench_loans, bench_schedule`.execute(db);
  await sql`vacuum analyze`.execute(db);
}

/**
 * What the other back-office lists read: an audit event for every decided application (the officer's
 * approval or rejection, at its decision time) and one kept provider payment per 50 applications (open,
 * applied by no reference), in batches.
 */
export async function seedBackOffice(db: Kysely<Database>, count: number, log: (m: string) => void) {
  for (let from = 1; from <= count; from += 100_000) {
    const to = Math.min(count, from + 99_999);
    await sql`
      insert into audit_events (at, actor_username, actor_role, action, target_type, target_id, loan_id, changes)
      select now() - (g % 900) * interval '1 hour', 'benchofficer', 'officer',
             case when g % 5 < 4 then 'application.approve' else 'application.reject' end,
             'application', ${uuidOf(sql`'app' || g`)}::text, ${uuidOf(sql`'app' || g`)}, '{}'::jsonb
      from generate_series(${from}::int, ${to}::int) g
      where g % 5 >= 2`.execute(db);
    // Kept payments that each suggestion path reads (issue #32), beside a paid-out loan (row g - 2): a third
    // quote its number without dashes, a third carry its borrower's phone, a third its next instalment's
    // amount (shared by every loan of the same amount and term: the ambiguous case). The first page holds
    // the amount ones: the most work per row.
    await sql`
      insert into unapplied_payments (provider, provider_reference, amount, received_at, payer_reference, payload, reason)
      select 'bench', 'UNAPPLIED-' || g,
             case when g % 150 = 100 then coalesce(a.next_due_minor, 100000) else 100000 end,
             now() - (g % 900) * interval '1 hour',
             case when g % 150 = 0 then replace(a.loan_number, '-', '') else 'HL-00-' || g end,
             case when g % 150 = 50 then jsonb_build_object('payerPhone', '+63 ' || substr(a.phone, 2)) else '{}'::jsonb end,
             'unknown_reference'
      from generate_series(${from}::int, ${to}::int) g
      left join applications a on a.id = ${uuidOf(sql`'app' || (g - 2)`)}
      where g % 50 = 0`.execute(db);
  }
  log(`  audit events and kept payments seeded`);
  await sql`vacuum analyze audit_events, unapplied_payments`.execute(db);
}

/** The row number `g` of each seeded paid-out loan whose facts a bench samples (every 997th paid-out row). */
export const seededPaidOut = (count: number) =>
  Array.from({ length: count }, (_, i) => i + 1)
    .filter((g) => g % 5 === 3 || (g % 10 === 7 && g > 100_000))
    .filter((_, i) => i % 997 === 0)
    .slice(0, 200);

/** A UUID derived from text, shaped as version 4 so it passes the API's UUID validation. */
function uuidOf(text: RawBuilder<unknown>) {
  return sql`(substr(md5(${text}), 1, 12) || '4' || substr(md5(${text}), 14, 3) || '8' || substr(md5(${text}), 18))::uuid`;
}

/** The ids the seed gave row number `g`. */
export const seededIds = {
  application: (g: number) => md5uuid(`app${g}`),
  phone: (g: number) => `09${String(g).padStart(9, '0')}`,
};

import { createHash } from 'node:crypto';

function md5uuid(text: string): string {
  const m = createHash('md5').update(text).digest('hex');
  const h = `${m.slice(0, 12)}4${m.slice(13, 16)}8${m.slice(17)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
