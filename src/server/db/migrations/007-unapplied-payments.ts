import { type Kysely, sql } from 'kysely';

/**
 * Money a payment provider reported that could not become a repayment by itself (issue #10): the loan number
 * quoted is unknown, the loan is not taking repayments, or the amount is more than the loan owes. It is kept
 * for finance to resolve, never dropped. The money facts never change; the only change allowed is the one
 * resolution open → applied (it became a repayment) or open → returned (sent back to the payer).
 */
/**
 * The guard as this migration writes it: only open → applied or returned may change. Migration 023 widens it
 * (a column added) and writes this one back when it is undone.
 */
export const unappliedPaymentsGuard = () =>
  sql`
    create or replace function unapplied_payments_guard() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'UPDATE' then
        raise exception 'unapplied_payments keeps money facts: % is not allowed', tg_op
          using errcode = 'insufficient_privilege';
      end if;
      if old.status <> 'open' or new.status not in ('applied', 'returned')
        or new.id <> old.id or new.provider <> old.provider
        or new.provider_reference <> old.provider_reference or new.amount <> old.amount
        or new.received_at <> old.received_at or new.payer_reference <> old.payer_reference
        or new.payer_name is distinct from old.payer_name or new.payload <> old.payload
        or new.reason <> old.reason or new.created_at <> old.created_at then
        raise exception 'unapplied_payments: only open → applied or returned may change'
          using errcode = 'insufficient_privilege';
      end if;
      return new;
    end
    $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table unapplied_payments (
      id uuid primary key default gen_random_uuid(),
      provider text not null,
      provider_reference text not null,
      amount bigint not null check (amount > 0),
      received_at timestamptz not null,
      payer_reference text not null,
      payer_name text,
      payload jsonb not null,
      reason text not null
        check (reason in ('unknown_reference', 'loan_not_running', 'before_payout', 'over_payment')),
      created_at timestamptz not null default now(),
      status text not null default 'open' check (status in ('open', 'applied', 'returned')),
      resolved_by uuid references users (id),
      resolved_at timestamptz,
      resolution_note text,
      applied_repayment_id uuid references repayments (id),
      constraint unapplied_payments_resolution check (
        (status = 'open' and resolved_by is null and resolved_at is null and applied_repayment_id is null)
        or (status = 'applied' and resolved_by is not null and resolved_at is not null
            and applied_repayment_id is not null)
        or (status = 'returned' and resolved_by is not null and resolved_at is not null
            and applied_repayment_id is null and length(resolution_note) > 0)
      )
    )`.execute(db);
  // One provider payment, one record (a redelivered webhook finds it again).
  await sql`
    create unique index unapplied_payments_provider_reference
    on unapplied_payments (provider, provider_reference)`.execute(db);
  // Finance's list: open first, oldest first.
  await sql`
    create index unapplied_payments_queue_idx
    on unapplied_payments ((status <> 'open'), received_at, id)`.execute(db);

  await unappliedPaymentsGuard().execute(db);
  await sql`
    create trigger unapplied_payments_guard before update or delete on unapplied_payments
    for each row execute function unapplied_payments_guard()`.execute(db);
  await sql`
    create trigger unapplied_payments_no_truncate before truncate on unapplied_payments
    for each statement execute function audit_events_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table unapplied_payments`.execute(db);
  await sql`drop function unapplied_payments_guard()`.execute(db);
}
