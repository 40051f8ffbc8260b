import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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

/** Every table the seed fills: their secondary indexes and foreign keys are built once, after the load. */
const seededTables = [
  'users',
  'documents',
  'applications',
  'disbursements',
  'repayments',
  'audit_events',
  'unapplied_payments',
  // Kept by the applications' triggers as rows are loaded (migration 048); their indexes built after.
  'name_starts',
  'name_words',
];

/** Rows per statement, and how many statements run at once (each on its own connection). */
const CHUNK = 125_000;
const PARALLEL = 2;

/** Runs `work` over [1, count] in chunks of `size`, `PARALLEL` chunks at a time, in row order. */
async function inChunks(count: number, size: number, work: (from: number, to: number) => Promise<void>) {
  const chunks: [number, number][] = [];
  for (let from = 1; from <= count; from += size) chunks.push([from, Math.min(count, from + size - 1)]);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const [from, to] = chunks[next++]!;
      await work(from, to);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, chunks.length) }, worker));
}

/**
 * The schema as the migrations made it, in the terms the seed could change: every index's and constraint's
 * definition (and whether it is validated) and every trigger. Compared before and after the seed.
 */
async function schemaShape(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ item: string }>`
    select 'index ' || indexname || ': ' || indexdef as item from pg_indexes where schemaname = 'public'
    union all
    select 'constraint ' || conrelid::regclass || '.' || conname || ': ' || pg_get_constraintdef(oid)
           || case when convalidated then '' else ' (not valid)' end
    from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select 'trigger ' || tgrelid::regclass || '.' || tgname || (case when tgenabled = 'D' then ' (disabled)' else '' end)
    from pg_trigger where not tgisinternal and tgrelid::regclass::text = any(${seededTables})
    order by 1`.execute(db);
  return rows.map((r) => r.item);
}

/** A table lock a restoring statement takes (PostgreSQL's lock modes, the ones used here). */
type Lock = [table: string, mode: 'row share' | 'share' | 'share update exclusive' | 'access exclusive'];

/** Whether two statements' locks would make one wait for the other (PostgreSQL's conflict table). */
function conflicts(a: Lock[], b: Lock[]): boolean {
  const clash: Record<Lock[1], Lock[1][]> = {
    'row share': ['access exclusive'],
    share: ['share update exclusive', 'access exclusive'],
    'share update exclusive': ['share', 'share update exclusive', 'access exclusive'],
    'access exclusive': ['row share', 'share', 'share update exclusive', 'access exclusive'],
  };
  return a.some(([table, mode]) =>
    b.some(([other, otherMode]) => table === other && clash[mode].includes(otherMode)),
  );
}

/**
 * Runs the statements that restore the set-aside indexes and constraints on two connections, in the given
 * order as far as locks allow: each connection takes the first statement that would not wait for the
 * other's, so both cores stay busy (index builds and foreign-key checks of different tables side by side)
 * instead of one connection checking keys while the other idles. Each with room to sort and join in memory.
 */
async function restoreTwoAtATime(
  db: Kysely<Database>,
  statements: { sql: string; locks: Lock[] }[],
  log: (m: string) => void,
) {
  const queue = [...statements];
  const took: [seconds: number, sql: string][] = [];
  const running = new Set<{ locks: Lock[]; done: Promise<unknown> }>();
  const worker = () =>
    db.connection().execute(async (connection) => {
      await sql`set maintenance_work_mem = '256MB'`.execute(connection);
      await sql`set work_mem = '512MB'`.execute(connection);
      while (queue.length > 0) {
        const at = queue.findIndex((s) => ![...running].some((r) => conflicts(s.locks, r.locks)));
        if (at < 0) {
          await Promise.race([...running].map((r) => r.done));
          continue;
        }
        const [statement] = queue.splice(at, 1);
        const started = performance.now();
        const entry = { locks: statement!.locks, done: sql.raw(statement!.sql).execute(connection) };
        running.add(entry);
        try {
          await entry.done;
          took.push([(performance.now() - started) / 1000, statement!.sql]);
        } finally {
          running.delete(entry);
        }
      }
    });
  await Promise.all([worker(), worker()]);
  took.sort((a, b) => b[0] - a[0]);
  for (const [seconds, text] of took.slice(0, 6)) log(`    ${seconds.toFixed(1)} s  ${text.slice(0, 110)}`);
}

/**
 * Loads with the seeded tables' foreign keys and secondary indexes set aside, as pg_restore does: a million
 * rows each checking five foreign keys and entering a dozen indexes (three of them trigram GIN) one at a
 * time took minutes; each index built once over the loaded table, and each foreign key validated by one
 * join, take seconds. Primary keys stay (other tables' foreign keys need them), and so do the triggers (the
 * dashboard's figures, migration 032, follow the set-based statements). Afterwards every index and
 * constraint is re-created from its own definition, and the schema is compared with what the migrations
 * made: the bench measures the real schema or stops.
 */
export async function withIndexesBuiltAfter<T>(
  db: Kysely<Database>,
  log: (m: string) => void,
  load: () => Promise<T>,
): Promise<T> {
  const before = await schemaShape(db);
  const { rows: foreignKeys } = await sql<{ tbl: string; ref: string; name: string; def: string }>`
    select conrelid::regclass::text as tbl, confrelid::regclass::text as ref, conname as name,
           pg_get_constraintdef(oid) as def
    from pg_constraint
    where contype = 'f' and conrelid::regclass::text = any(${seededTables})
    order by 1, 2`.execute(db);
  for (const fk of foreignKeys) {
    await sql`alter table ${sql.table(fk.tbl)} drop constraint ${sql.ref(fk.name)}`.execute(db);
  }
  // Indexes no constraint owns or leans on (a foreign key from elsewhere needs its unique index).
  const { rows: indexes } = await sql<{ tbl: string; name: string; def: string }>`
    select t.relname::text as tbl, i.relname as name, pg_get_indexdef(i.oid) as def
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
    where t.relnamespace = 'public'::regnamespace and t.relname = any(${seededTables})
      and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
    order by 1`.execute(db);
  for (const index of indexes) await sql`drop index ${sql.ref(index.name)}`.execute(db);
  // Unique constraints no foreign key leans on, likewise: a million random texts (a document's storage key)
  // entered one at a time cost more than the rows themselves; one sorted build each costs seconds.
  const { rows: uniques } = await sql<{ tbl: string; name: string; def: string }>`
    select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
    from pg_constraint u
    where contype = 'u' and conrelid::regclass::text = any(${seededTables})
      and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.conindid = u.conindid)
    order by 1, 2`.execute(db);
  for (const u of uniques) {
    await sql`alter table ${sql.table(u.tbl)} drop constraint ${sql.ref(u.name)}`.execute(db);
  }
  log(
    `  loading with ${indexes.length} indexes, ${uniques.length} unique constraints and ${foreignKeys.length} foreign keys set aside`,
  );
  let result: T;
  try {
    result = await load();
  } finally {
    const t0 = performance.now();
    // Each foreign key comes back unchecked (at once), then is validated: one join of the whole table
    // against the referenced key, in memory rather than in batches on disk.
    for (const fk of foreignKeys) {
      await sql`alter table ${sql.table(fk.tbl)} add constraint ${sql.ref(fk.name)} ${sql.raw(fk.def)} not valid`.execute(
        db,
      );
    }
    await restoreTwoAtATime(
      db,
      [
        ...uniques.map((u) => ({
          sql: `alter table ${u.tbl} add constraint ${u.name} ${u.def}`,
          locks: [[u.tbl, 'access exclusive']] as Lock[],
        })),
        // The single table with many keys (applications) is checked early, beside other tables' builds.
        ...foreignKeys.map((fk) => ({
          sql: `alter table ${fk.tbl} validate constraint ${fk.name}`,
          locks: [
            [fk.tbl, 'share update exclusive'],
            [fk.ref, 'row share'],
          ] as Lock[],
        })),
        ...indexes.map((index) => ({ sql: index.def, locks: [[index.tbl, 'share']] as Lock[] })),
      ],
      log,
    );
    log(`  indexes built and foreign keys validated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const after = await schemaShape(db);
  const lost = before.filter((item) => !after.includes(item));
  const added = after.filter((item) => !before.includes(item));
  if (lost.length + added.length > 0) {
    throw new Error(`the seed changed the schema: missing ${lost.join('; ')}; extra ${added.join('; ')}`);
  }
  log(`  schema as migrated: ${after.length} indexes, constraints and triggers compared → same`);
  return result;
}

/** The staff the bench signs in as (benchofficer, benchadmin, benchfinance), all with `passwordHash`. */
export async function seedBenchStaff(db: Kysely<Database>, passwordHash: string) {
  await db
    .insertInto('users')
    .values([
      { username: 'benchofficer', phone: null, password_hash: passwordHash, role: 'officer' },
      { username: 'benchadmin', phone: null, password_hash: passwordHash, role: 'admin' },
      { username: 'benchfinance', phone: null, password_hash: passwordHash, role: 'finance' },
    ])
    .execute();
}

/**
 * Everything the bench reads (applications, the repayment era, the back office), loaded with indexes and
 * foreign keys built afterwards (`withIndexesBuiltAfter`), then analysed. Returns the seconds it took and
 * the CPU seconds PostgreSQL spent on it.
 */
/**
 * How the seed names its borrowers: `repeated`, 20 first × 20 last names (400 names over any number of rows,
 * as the issue #35 figures were measured); `unique`, each of those names followed by a third word of its own,
 * so every name is distinct while a search for a first, last or full name of the 400 still matches the same
 * rows (docs/decisions/066: the two ways a name search can go).
 */
export type SeedNames = 'repeated' | 'unique';

/** A `--names=` argument, refused unless it is one of the two. */
export function seedNamesOf(value: string): SeedNames {
  if (value !== 'repeated' && value !== 'unique') throw new Error(`--names=repeated|unique, not ${value}`);
  return value;
}

export async function seedAll(
  db: Kysely<Database>,
  count: number,
  passwordHash: string,
  log: (m: string) => void,
  names: SeedNames = 'repeated',
) {
  const t0 = performance.now();
  const cpu = await watchDatabaseCpu(db);
  const phase = async (name: string, load: () => Promise<void>) => {
    const started = performance.now();
    await load();
    log(`  ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  await withIndexesBuiltAfter(db, log, async () => {
    await phase('applications', () => loadApplications(db, count, passwordHash, log, names));
    await phase('repayment era', () => loadRepayments(db, count, log));
    await phase('back office', () => loadBackOffice(db, count, log));
  });
  await sql`analyze`.execute(db);
  return { seconds: (performance.now() - t0) / 1000, databaseCpuSeconds: cpu?.stop() ?? null };
}

/**
 * Seeds `count` borrowers, each with one application (and its four document rows), with set-based
 * generate_series statements. Statuses: 40 % pending, 40 % approved, 20 % rejected; submissions spread
 * over the last ~40 days. Ids are derived from the row number, so a benchmark can address any row without
 * reading it first.
 */
export async function seedApplications(
  db: Kysely<Database>,
  count: number,
  passwordHash: string,
  log: (m: string) => void,
) {
  await withIndexesBuiltAfter(db, log, () => loadApplications(db, count, passwordHash, log));
  // A steady-state database: autovacuum would have set the visibility map by now (index-only scans).
  await sql`vacuum analyze`.execute(db);
}

async function loadApplications(
  db: Kysely<Database>,
  count: number,
  passwordHash: string,
  log: (m: string) => void,
  names: SeedNames = 'repeated',
) {
  const first = sql.raw(`array[${firstNames.map((n) => `'${n}'`).join(',')}]`);
  const last = sql.raw(`array[${lastNames.map((n) => `'${n}'`).join(',')}]`);
  // A name says nothing about the loan's status (first name from g / 7, status from g % 5), as with real
  // borrowers; with g % 20 every Maria was pending and a Repayments search for her found nothing.
  // Each row's two ids computed once (offset 0 keeps the planner from copying the expression to every use).
  const ids = (from: number, to: number) => sql`
    generate_series(${from}::int, ${to}::int) g,
    lateral (select ${uuidOf(sql`'app' || g`)} as app, ${uuidOf(sql`'user' || g`)} as usr offset 0) ids`;
  await inChunks(count, CHUNK, (from, to) =>
    db.transaction().execute(async (trx) => {
      await sql`
        insert into users (id, phone, password_hash, role, created_at, privacy_notice_version)
        select ids.usr, ${phoneSql}, ${passwordHash}, 'borrower',
               now() - (g % 960) * interval '1 hour', ${DEFAULT_PRIVACY_NOTICE_VERSION}
        from ${ids(from, to)}`.execute(trx);
      // In key order: the random ids' primary-key pages are then entered one after another.
      await sql`
        insert into documents (id, owner_id, application_id, kind, content_type, size, width, height, sha256, storage_key)
        select ${uuidOf(sql`'doc' || g || k`)}, ids.usr, ids.app, k,
               case when k = 'signature' then 'image/png' else 'image/jpeg' end, 1, 1, 1, repeat('0', 64),
               'applications/' || ids.app || '/' || k || '.jpg'
        from ${ids(from, to)}, unnest(array['id_front', 'id_back', 'selfie', 'signature']) k
        order by 1`.execute(trx);
      await sql`
        insert into applications (id, loan_number, borrower_id, phone, full_name, id_number, amount, term_months,
          monthly_rate_bp, monthly_payment, company_name, position, income, monthly_expense, address, email,
          contact_name, contact_phone, contact_address, contact_relation, bank_name, account_number,
          doc_id_front, doc_id_back, doc_selfie, doc_signature, disclosure, disclosure_sha256, terms, status,
          credit_score, submitted_at, decided_at, approved_amount, reject_reason)
        select ids.app, 'HL-26-' || lpad(g::text, greatest(6, length(g::text)), '0'),
               ids.usr,
               ${phoneSql},
               (${first})[1 + (g / 7) % 20] || ' ' || (${last})[1 + (g / 20) % 20]${
                 names === 'unique'
                   ? sql` || ' ' || initcap(translate(substr(md5(g::text), 1, 8), '0123456789', 'ghijklmnop'))`
                   : sql``
               },
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
        from ${ids(from, to)},
             lateral (select case when g % 5 < 2 then 'pending' when g % 5 < 4 then 'approved' else 'rejected' end as status) s`.execute(
        trx,
      );
      log(
        `  seeded ${from.toLocaleString('en')}–${to.toLocaleString('en')} of ${count.toLocaleString('en')}`,
      );
    }),
  );
  await sql`select setval('loan_number_seq', ${count + 1})`.execute(db);
  await sql`analyze users, documents, applications`.execute(db);
}

/**
 * The repayment era on top of the applications (`loadApplications`): about 72 % of approved loans paid out in full (every loan
 * with g % 5 = 3, and g % 10 = 7 above 100,000 — never the loans the withdrawal race uses), 1 to ~22 months
 * ago, each repaid instalment by instalment on its due dates, so the single-payout schedule is exactly what
 * the model replays. By (g / 5) % 100: 80 % have paid everything due, the rest are 1, 2, 3 or 4–6 instalments
 * behind (days past due spread over every bucket). The stored facts (migration 008) are written straight from
 * the same schedule (`buildSchedule`): outstanding = the scheduled balance after the instalments paid, next due
 * = the first unpaid instalment, its full payment, and every unpaid instalment with its payment. `checkSeededFacts` in run.ts replays a sample to prove they
 * are what refreshLoanFacts would write. Payout days and due dates are civil dates in Asia/Manila.
 */
async function loadRepayments(db: Kysely<Database>, count: number, log: (m: string) => void) {
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
  await inChunks(count, 100_000, async (from, to) => {
    await sql`insert into bench_loans ${planned(from, to)}`.execute(db);
  });
  await sql`create index on bench_loans (g)`.execute(db);
  await sql`analyze bench_loans`.execute(db);
  await inChunks(count, CHUNK, async (from, to) => {
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
    log(
      `  repayment era ${from.toLocaleString('en')}–${to.toLocaleString('en')} of ${count.toLocaleString('en')}`,
    );
  });
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
  await sql`analyze disbursements, repayments, applications`.execute(db);
}

/**
 * What the other back-office lists read: an audit event for every decided application (the officer's
 * approval or rejection, at its decision time) and one kept provider payment per 50 applications (open,
 * applied by no reference), in batches.
 */
async function loadBackOffice(db: Kysely<Database>, count: number, log: (m: string) => void) {
  await inChunks(count, CHUNK, async (from, to) => {
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
  });
  log(`  audit events and kept payments seeded`);
  await sql`analyze audit_events, unapplied_payments`.execute(db);
}

/** The row number `g` of each seeded paid-out loan whose facts a bench samples (every 997th paid-out row). */
export const seededPaidOut = (count: number) =>
  Array.from({ length: count }, (_, i) => i + 1)
    .filter((g) => g % 5 === 3 || (g % 10 === 7 && g > 100_000))
    .filter((_, i) => i % 997 === 0)
    .slice(0, 200);

/**
 * A UUID derived from text, shaped as version 4 so it passes the API's UUID validation: the md5 with its
 * 13th hex digit set to 4 and its 17th to 8 (one md5 per id; `md5uuid` below is the same in TypeScript).
 */
function uuidOf(text: RawBuilder<unknown>) {
  return sql`overlay(overlay(md5(${text}) placing '4' from 13 for 1) placing '8' from 17 for 1)::uuid`;
}

/** The ids the seed gave row number `g`. */
/**
 * Row g's mobile number: 09 and nine digits spread as real numbers are (7,919 is prime to 10⁹, so every g
 * has its own). A zero-padded counter gave every phone the trigram "000", so a search for a few digits
 * matched the whole table in the trigram index and rechecked 400,000 rows.
 */
export const phoneSql = sql`'09' || lpad(((g::bigint * 7919 + 104729) % 1000000000)::text, 9, '0')`;

export const seededIds = {
  application: (g: number) => md5uuid(`app${g}`),
  phone: (g: number) => `09${String((g * 7919 + 104_729) % 1_000_000_000).padStart(9, '0')}`,
};

function md5uuid(text: string): string {
  const m = createHash('md5').update(text).digest('hex');
  const h = `${m.slice(0, 12)}4${m.slice(13, 16)}8${m.slice(17)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * CPU seconds the PostgreSQL server spent (every process of the cluster, sampled each second so that
 * connections closed meanwhile still count): on a shared machine the wall time says how busy the others
 * were, this says what the seed itself cost. Null where the database is not a local PostgreSQL (PGlite).
 */
export async function watchDatabaseCpu(db: Kysely<Database>) {
  let postmaster = 0;
  try {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    postmaster = Number(readFileSync(`/proc/${rows[0]!.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  } catch {
    return null;
  }
  const seen = new Map<number, number>();
  const ticks = (pid: number) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { parent: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) };
  };
  const sample = () => {
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!pid) continue;
      try {
        const { parent, cpu } = ticks(pid);
        if (parent === postmaster || pid === postmaster) seen.set(pid, cpu);
      } catch {}
    }
  };
  sample();
  const start = new Map(seen);
  const timer = setInterval(sample, 1000);
  return {
    /** CPU seconds since the watch began (Linux clock ticks of 1/100 s). */
    stop: () => {
      clearInterval(timer);
      sample();
      let total = 0;
      for (const [pid, cpu] of seen) total += cpu - (start.get(pid) ?? 0);
      return total / 100;
    },
  };
}
