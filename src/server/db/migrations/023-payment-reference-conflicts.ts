import { type Kysely, sql } from 'kysely';
import { unappliedPaymentsGuard } from './007-unapplied-payments';

/**
 * A provider delivery that quotes a payment reference already received with a different amount (issue #33)
 * is kept for finance as its own unapplied payment, reason `reference_conflict`, with the amount the earlier
 * delivery carried (`earlier_amount`), instead of being answered as the first one and forgotten. One such
 * record per reference and amount, so its own redeliveries find it again; every other reason keeps one
 * record per provider reference. The money facts guard covers the new column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table unapplied_payments add column earlier_amount bigint check (earlier_amount > 0)`.execute(
    db,
  );
  await sql`alter table unapplied_payments drop constraint unapplied_payments_reason_check`.execute(db);
  await sql`
    alter table unapplied_payments add constraint unapplied_payments_reason_check check (
      reason in ('unknown_reference', 'loan_not_running', 'before_payout', 'over_payment', 'reference_conflict')
      and (reason = 'reference_conflict') = (earlier_amount is not null)
    )`.execute(db);
  await sql`drop index unapplied_payments_provider_reference`.execute(db);
  await sql`
    create unique index unapplied_payments_provider_reference
    on unapplied_payments (provider, provider_reference) where reason <> 'reference_conflict'`.execute(db);
  await sql`
    create unique index unapplied_payments_reference_conflict
    on unapplied_payments (provider, provider_reference, amount) where reason = 'reference_conflict'`.execute(
    db,
  );
  await sql`
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
        or new.reason <> old.reason or new.created_at <> old.created_at
        or new.earlier_amount is distinct from old.earlier_amount then
        raise exception 'unapplied_payments: only open → applied or returned may change'
          using errcode = 'insufficient_privilege';
      end if;
      return new;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Before its column goes: the guard of 007 names no earlier_amount (023's would refuse every update).
  await unappliedPaymentsGuard().execute(db);
  await sql`drop index unapplied_payments_reference_conflict`.execute(db);
  await sql`drop index unapplied_payments_provider_reference`.execute(db);
  await sql`
    create unique index unapplied_payments_provider_reference
    on unapplied_payments (provider, provider_reference)`.execute(db);
  await sql`alter table unapplied_payments drop constraint unapplied_payments_reason_check`.execute(db);
  await sql`
    alter table unapplied_payments add constraint unapplied_payments_reason_check
    check (reason in ('unknown_reference', 'loan_not_running', 'before_payout', 'over_payment'))`.execute(db);
  await sql`alter table unapplied_payments drop column earlier_amount`.execute(db);
}
