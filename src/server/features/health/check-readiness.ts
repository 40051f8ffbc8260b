import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { pendingMigrations } from '../../db/open';
import type { AppDeps } from '../../deps';
import { withinTime } from '../../lib/within-time';

/** A probe that waits longer than this for the database counts it as unreachable. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Readiness, unlike liveness: this instance can serve requests now, i.e. its database answers and holds
 * every migration this code base knows. Otherwise NOT_READY (503) with what failed, so a load balancer
 * sends traffic elsewhere without restarting the process.
 */
export async function checkReadiness(deps: AppDeps): Promise<void> {
  let pending: string[];
  try {
    pending = await withinTime(
      (async () => {
        await sql`select 1`.execute(deps.db);
        return pendingMigrations(deps.db);
      })(),
      CHECK_TIMEOUT_MS,
      'readiness check timed out',
    );
  } catch (error) {
    deps.log.warn({ err: error }, 'readiness: the database did not answer');
    throw new AppError('NOT_READY', { params: { database: 'unreachable' } });
  }
  if (pending.length > 0) {
    throw new AppError('NOT_READY', { params: { database: 'ok', pendingMigrations: pending.length } });
  }
}
