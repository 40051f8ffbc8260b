import { isIPv6 } from 'node:net';
import type { preValidationAsyncHookHandler } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { AppError, type ErrorCode } from '../../domain/errors';
import type { Database } from '../db/schema';

export interface Ceiling {
  /** The counter's name, e.g. "codes:ip:203.0.113.7" or "codes:global". */
  key: string;
  /** At most this many uses per hour (a fixed window starting on the hour). */
  perHour: number;
}

/** Adds `slots` uses to the counter of `key` in the current hour, in one statement, and reads it back. */
async function countUses(db: Kysely<Database>, key: string, slots: number) {
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ key, window_start: sql`date_trunc('hour', now())`, count: slots })
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet({ count: sql`rate_limit_counters.count + ${slots}` }),
    )
    .returning([
      'count',
      // extract() is numeric, which the drivers return as text.
      sql<string>`extract(epoch from (window_start + interval '1 hour' - now()))`.as('secondsLeft'),
    ])
    .executeTakeFirstOrThrow();
  return { count: row.count, secondsLeft: Number(row.secondsLeft) };
}

function refusal(code: ErrorCode, secondsLeft: number) {
  const retryAfterSeconds = Math.max(1, Math.ceil(secondsLeft));
  return new AppError(code, { params: { n: Math.ceil(retryAfterSeconds / 60) }, retryAfterSeconds });
}

/**
 * Takes one slot of each ceiling, in order, or throws `code` (HTTP 429) with the seconds until the full
 * window ends as Retry-After. Run it in the transaction of the work it guards: the counter rows stay locked
 * until that transaction ends, so concurrent requests (on any instance) queue and cannot overshoot, and a
 * refusal or a failure of the work rolls the slot back. Take ceilings in the same order everywhere (the
 * narrower first) so transactions never wait on each other in a cycle.
 */
export async function takeSlots(db: Kysely<Database>, ceilings: Ceiling[], code: ErrorCode): Promise<void> {
  for (const ceiling of ceilings) {
    const row = await countUses(db, ceiling.key, 1);
    if (row.count > ceiling.perHour) throw refusal(code, row.secondsLeft);
  }
}

/** A use's place among its key's uses this hour (1 for the first), and the seconds left in that hour. */
interface Use {
  nth: number;
  secondsLeft: number;
}

interface SlotWaiter {
  resolve: (use: Use) => void;
  reject: (error: unknown) => void;
}

/**
 * Counts uses outside any transaction (every attempt counts, whatever its outcome) without one statement
 * per request: the first use of a key is written at once, and the uses of that key arriving while it is
 * written are added together by the next statement (`count + n`), each told its own place in the hour.
 * The counter stays exact on any number of instances (each statement adds atomically); a burst of requests
 * on one key (one address, one account) no longer queues hundreds of single-row updates on one row lock,
 * each holding a pooled connection.
 */
export class UseCounter {
  private readonly keys = new Map<string, SlotWaiter[]>();

  constructor(private readonly db: Kysely<Database>) {}

  take(key: string): Promise<Use> {
    return new Promise((resolve, reject) => {
      const queue = this.keys.get(key);
      if (queue) {
        queue.push({ resolve, reject });
        return;
      }
      this.keys.set(key, []);
      void this.write(key, [{ resolve, reject }]);
    });
  }

  /** Writes `first`, then whatever queued for the key meanwhile, until nothing did (a loop: a long burst
   * builds no chain of promises). */
  private async write(key: string, first: SlotWaiter[]): Promise<void> {
    for (let batch = first; batch.length > 0; batch = this.takeQueued(key)) {
      try {
        const row = await countUses(this.db, key, batch.length);
        const before = row.count - batch.length;
        for (const [i, waiter] of batch.entries()) {
          waiter.resolve({ nth: before + i + 1, secondsLeft: row.secondsLeft });
        }
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
  }

  /** The uses queued for `key` since its last write; the key is forgotten when there are none. */
  private takeQueued(key: string): SlotWaiter[] {
    const queued = this.keys.get(key) ?? [];
    if (queued.length === 0) this.keys.delete(key);
    else this.keys.set(key, []);
    return queued;
  }

  /** Keys being written (for tests: the map must not grow without bound). */
  get size(): number {
    return this.keys.size;
  }
}

/**
 * The address a per-client ceiling counts: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 prefix,
 * since one subscriber usually gets a whole /64 and could otherwise rotate addresses freely.
 */
export function clientBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  // An embedded IPv4 tail (e.g. 64:ff9b::192.0.2.1) is two groups.
  const hex = ip.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [((+a << 8) | +b).toString(16), ((+c << 8) | +d).toString(16)].join(':'),
  );
  const [head = '', tail = ''] = hex.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = hex.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = hex.includes('::')
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** A general per-hour ceiling on one kind of request, per client address and per signed-in account. */
export interface RequestCeilings {
  perIpPerHour: number;
  perAccountPerHour?: number;
}

/**
 * A `preValidation` hook (after the permission guard, before the body is read) that takes one slot of
 * `rl:<name>:ip:<address>` and, for a signed-in caller, `rl:<name>:user:<id>`, or answers 429
 * RATE_LIMITED with Retry-After. Every attempt counts, whatever its outcome (issue #15).
 */
export function rateLimit(
  db: Kysely<Database>,
  name: string,
  ceilings: RequestCeilings,
): preValidationAsyncHookHandler {
  const uses = new UseCounter(db);
  return async (request) => {
    const slots: Ceiling[] = [
      { key: `rl:${name}:ip:${clientBucket(request.ip)}`, perHour: ceilings.perIpPerHour },
    ];
    const userId = request.auth?.user.id;
    if (userId && ceilings.perAccountPerHour !== undefined)
      slots.push({ key: `rl:${name}:user:${userId}`, perHour: ceilings.perAccountPerHour });
    for (const slot of slots) {
      const use = await uses.take(slot.key);
      if (use.nth > slot.perHour) throw refusal('RATE_LIMITED', use.secondsLeft);
    }
  };
}
