import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../src/server/db/schema';

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
        insert into users (id, phone, password_hash, role, created_at)
        select ${uuidOf(sql`'user' || g`)}, '09' || lpad(g::text, 9, '0'), ${passwordHash}, 'borrower',
               now() - (g % 960) * interval '1 hour'
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
          doc_id_front, doc_id_back, doc_selfie, doc_signature, disclosure, disclosure_sha256, status,
          credit_score, submitted_at, decided_at, approved_amount, reject_reason)
        select ${uuidOf(sql`'app' || g`)}, 'HL-26-' || lpad(g::text, 7, '0'), ${uuidOf(sql`'user' || g`)},
               '09' || lpad(g::text, 9, '0'),
               (${first})[1 + g % 20] || ' ' || (${last})[1 + (g / 20) % 20],
               'ID-' || g, (1 + g % 30) * 1000000, (array[6, 12, 18, 24])[1 + g % 4], 200, 1785258,
               'Store ' || g, 'Owner', 3000000, 1000000, 'Quezon City', null, 'Contact', '09180000000', 'Quezon City',
               'friend', 'GCash', '0917' || lpad(g::text, 7, '0'),
               ${uuidOf(sql`'doc' || g || 'id_front'`)}, ${uuidOf(sql`'doc' || g || 'id_back'`)},
               ${uuidOf(sql`'doc' || g || 'selfie'`)}, ${uuidOf(sql`'doc' || g || 'signature'`)},
               '{}'::jsonb, repeat('0', 64),
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
