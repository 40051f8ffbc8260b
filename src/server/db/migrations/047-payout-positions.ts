import { type Kysely, type RawBuilder, sql } from 'kysely';
import { disbursementStatuses } from '../../../domain/loan/disbursement-status';
import { dropFiguresPerDay, keepFiguresPerDay, shard } from './032-dashboard-figures';

/**
 * The Disbursements list's deep pages from counts, as migration 046 does for the queues (docs/decisions/069,
 * 071): page 2,000 of the payouts skipped 19,990 entries of the requested_at index (p95 ~50 ms with 32 staff
 * asking at 1 M applications) and showed "1,000+". How many payouts fall in each UTC hour of `requested_at`
 * is kept in `queue_counts` by the writes, for the whole list ('payouts') and for each status the list filters
 * by ('payouts_requested', 'payouts_paid', 'payouts_failed'), each with its total ('<figure>_total').
 */
export const PAYOUT_POSITION_FIGURES = {
  all: { hours: 'payouts', total: 'payouts_total' },
  ...Object.fromEntries(
    disbursementStatuses.map((status) => [
      status,
      { hours: `payouts_${status}`, total: `payouts_${status}_total` },
    ]),
  ),
} as Record<'all' | (typeof disbursementStatuses)[number], { hours: string; total: string }>;

/** A payout's hour as migration 046 writes an hour part (requested_at is never null). */
const hour = sql.raw(`to_char(date_trunc('hour', r.requested_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24')`);

const payouts = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select figure, part, ${shard} as shard, ${sql.lit(sign)}::bigint as n, 0::bigint as amount
  from ${rows} r,
  lateral (values ('payouts', ${hour}), ('payouts_total', ''),
                  ('payouts_' || r.status, ${hour}), ('payouts_' || r.status || '_total', '')) f (figure, part)`;

const figures = Object.values(PAYOUT_POSITION_FIGURES).flatMap(({ hours, total }) => [hours, total]);

export async function up(db: Kysely<unknown>): Promise<void> {
  await keepFiguresPerDay(db, 'positions', 'disbursements', figures, payouts, 'queue_counts');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropFiguresPerDay(db, 'positions', 'disbursements', figures, 'queue_counts');
}
