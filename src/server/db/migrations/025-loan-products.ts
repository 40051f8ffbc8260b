import { type Kysely, sql } from 'kysely';

/**
 * Loan products (issue #31, SPEC §9, docs/decisions/034). `products` names a product for good (its code);
 * `product_versions` holds what each version says: names in every language, borrower and staff amount
 * ranges (centavos) with their steps, the terms offered and the default, the monthly rate, fees and how they
 * are taken, the late charge, grace days, the four-eyes threshold, who may apply (a first-loan limit and a
 * larger limit after N loans repaid at most D days late) and whether it is active or retired. Both are
 * never changed nor deleted (triggers): an edit, a retirement or a reactivation is a new version, and the
 * newest version of a product is what it offers now.
 *
 * `applications.product_version_id` is the version a loan was signed under (null for loans signed before
 * products existed). The default product (version 1 from the settings) is written at start-up on an empty
 * database, since a migration cannot read the settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table products (
      id uuid primary key default gen_random_uuid(),
      code text not null unique check (code ~ '^[a-z][a-z0-9-]{1,31}$'),
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      created_by uuid references users (id)
    )`.execute(db);
  await sql`create unique index products_one_default on products (is_default) where is_default`.execute(db);

  await sql`
    create table product_versions (
      id uuid primary key default gen_random_uuid(),
      product_id uuid not null references products (id),
      version integer not null check (version >= 1),
      status text not null check (status in ('active', 'retired')),
      name_en text not null check (length(name_en) between 1 and 80),
      name_fil text not null check (length(name_fil) between 1 and 80),
      name_zh text not null check (length(name_zh) between 1 and 80),
      name_km text not null check (length(name_km) between 1 and 80),
      borrower_min_minor bigint not null check (borrower_min_minor > 0),
      borrower_max_minor bigint not null check (borrower_max_minor >= borrower_min_minor),
      borrower_step_minor bigint not null check (borrower_step_minor > 0),
      staff_min_minor bigint not null check (staff_min_minor > 0),
      staff_max_minor bigint not null check (staff_max_minor >= staff_min_minor),
      staff_step_minor bigint not null check (staff_step_minor > 0),
      terms_months integer[] not null check (cardinality(terms_months) >= 1),
      default_term_months integer not null check (default_term_months = any (terms_months)),
      monthly_rate_bp integer not null check (monthly_rate_bp between 0 and 10000),
      fee_flat_minor bigint not null check (fee_flat_minor >= 0),
      fee_percent_bp integer not null check (fee_percent_bp between 0 and 9999),
      fee_collection text not null check (fee_collection in ('deducted_from_payout')),
      late_charge_monthly_bp integer not null check (late_charge_monthly_bp between 0 and 10000),
      grace_days integer not null check (grace_days >= 0),
      four_eyes_threshold_minor bigint not null check (four_eyes_threshold_minor >= 0),
      first_loan_max_minor bigint not null check (first_loan_max_minor > 0),
      repeat_after_loans integer check (repeat_after_loans >= 1),
      repeat_max_days_late integer check (repeat_max_days_late >= 0),
      repeat_max_minor bigint check (repeat_max_minor > first_loan_max_minor),
      created_at timestamptz not null default now(),
      created_by uuid references users (id),
      -- Why this version was saved (an edit's optional note, a retirement's reason); null for version 1.
      reason text,
      unique (product_id, version),
      check (
        (repeat_after_loans is null and repeat_max_days_late is null and repeat_max_minor is null) or
        (repeat_after_loans is not null and repeat_max_days_late is not null and repeat_max_minor is not null)
      )
    )`.execute(db);

  await sql`
    create function product_records_never_change() returns trigger language plpgsql as $$
    begin
      raise exception 'loan products and their versions are never changed or deleted: save a new version';
    end $$`.execute(db);
  for (const table of ['products', 'product_versions']) {
    await sql`
      create trigger ${sql.id(`${table}_never_change`)} before update or delete on ${sql.table(table)}
      for each row execute function product_records_never_change()`.execute(db);
    await sql`
      create trigger ${sql.id(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function product_records_never_change()`.execute(db);
  }

  await sql`alter table applications add column product_version_id uuid references product_versions (id)`.execute(
    db,
  );
  await sql`
    create index applications_product_version_idx on applications (product_version_id)
    where product_version_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_product_version_idx`.execute(db);
  await sql`alter table applications drop column product_version_id`.execute(db);
  await sql`drop table product_versions`.execute(db);
  await sql`drop table products`.execute(db);
  await sql`drop function product_records_never_change()`.execute(db);
}
