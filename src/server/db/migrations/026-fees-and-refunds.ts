import { type Kysely, sql } from 'kysely';

/**
 * Fees are taken as the disclosure says (issue #31, docs/decisions/036): each payout records the fee
 * deducted from it (`fee_minor`); the borrower is sent `amount − fee_minor`, and owes `amount`. Set when the
 * withdrawal is requested (the re-disclosure shows it and the code is bound to it) and never changed.
 * Payouts made before fees were taken took none.
 *
 * Money received above the payoff is recorded, never refused (the money has arrived); the replay holds it as
 * the borrower's credit, and finance refunds it with a recorded transfer (`credit_refunds`: append-only, one
 * row per refund, its reference unique per loan).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table disbursements
      add column fee_minor bigint not null default 0,
      add constraint disbursements_fee check (fee_minor >= 0 and fee_minor < amount)`.execute(db);
  await sql`
    create function disbursements_fee_fixed() returns trigger language plpgsql as $$
    begin
      if new.fee_minor <> old.fee_minor or new.amount <> old.amount then
        raise exception 'disbursements: the amount and the fee taken never change'
          using errcode = 'insufficient_privilege';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger disbursements_fee_fixed before update on disbursements
    for each row execute function disbursements_fee_fixed()`.execute(db);

  await sql`
    create table credit_refunds (
      id uuid primary key default gen_random_uuid(),
      application_id uuid not null references applications (id),
      amount bigint not null check (amount > 0),
      reference text not null check (length(reference) > 0),
      refunded_by uuid not null references users (id),
      created_at timestamptz not null default now(),
      constraint credit_refunds_reference unique (application_id, reference)
    )`.execute(db);
  await sql`
    create trigger credit_refunds_append_only before update or delete on credit_refunds
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`
    create trigger credit_refunds_no_truncate before truncate on credit_refunds
    for each statement execute function audit_events_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table credit_refunds`.execute(db);
  await sql`drop trigger disbursements_fee_fixed on disbursements`.execute(db);
  await sql`drop function disbursements_fee_fixed()`.execute(db);
  await sql`alter table disbursements drop constraint disbursements_fee, drop column fee_minor`.execute(db);
}
