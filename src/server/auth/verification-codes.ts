import { type Kysely, sql, type Transaction } from 'kysely';
import { type CodePurpose, codePolicy } from '../../domain/codes';
import { AppError, type ErrorCode } from '../../domain/errors';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { clientBucket, takeSlots } from '../lib/rate-limits';
import type { Notifier } from '../notify/notifier';
import type { CredentialChecks } from './attempt-limits';
import { hmac, randomDigits, safeEqual } from './crypto';

/** At most this many codes per phone and purpose in an hour, on top of the resend wait (60 s, config). */
const CODES_PER_HOUR = 5;

export interface CodeTarget {
  phone: string;
  purpose: CodePurpose;
  /** What the code authorises (e.g. "amount=500000;account=…"); a code only verifies for the same context. */
  context: string;
}

export function codeHash(secret: string, target: CodeTarget, code: string): string {
  return hmac(secret, `${target.purpose}\n${target.phone}\n${target.context}\n${code}`);
}

export interface CodeSendingDeps {
  db: Kysely<Database>;
  secret: string;
  notifier: Notifier;
  resendAfterSeconds: number;
  /** Codes per hour at most from one client address and from everyone (issue #15). */
  limits: { perIpPerHour: number; globalPerHour: number };
}

export function codeSendingDeps(deps: AppDeps): CodeSendingDeps {
  return {
    db: deps.db,
    secret: deps.config.sessionSecret,
    notifier: deps.notifier,
    resendAfterSeconds: deps.config.codeResendSeconds,
    limits: deps.config.codeLimits,
  };
}

/**
 * Issues a fresh code (superseding any earlier one for the same phone and purpose) and sends it to the
 * phone. Only the keyed hash is stored. The per-phone advisory lock makes concurrent requests queue, so
 * the resend wait (`resendAfterSeconds`, SPEC §5: 60; shorter only in test runs) cannot be bypassed by sending two requests at once.
 * Every code sent also takes a slot of the requesting address's and the overall hourly ceilings (shared by
 * all instances through the database); a code refused for any reason takes none.
 */
export async function issueCode(
  deps: CodeSendingDeps,
  clientIp: string,
  target: CodeTarget,
  message: (code: string) => string,
): Promise<{ resendAfterSeconds: number; expiresInSeconds: number }> {
  const reserved = await deps.db.transaction().execute((trx) => reserveCode(trx, deps, clientIp, target));
  await deliverCode(deps, reserved, target, message);
  return codeSentAnswer(deps);
}

export function codeSentAnswer(deps: Pick<CodeSendingDeps, 'resendAfterSeconds'>) {
  return { resendAfterSeconds: deps.resendAfterSeconds, expiresInSeconds: codePolicy.ttlSeconds };
}

/** A code stored (hashed) but not sent yet: `id` of its row and the digits to send. */
export interface ReservedCode {
  id: string;
  code: string;
}

/**
 * The stored half of `issueCode`, inside the caller's transaction: waits for the phone's lock, checks the
 * resend wait and the per-phone, per-address and overall ceilings, supersedes the live code and stores the
 * new one's hash. Send it with `deliverCode` once the transaction has committed.
 */
export async function reserveCode(
  trx: Transaction<Database>,
  deps: Pick<CodeSendingDeps, 'secret' | 'resendAfterSeconds' | 'limits'>,
  clientIp: string,
  target: CodeTarget,
): Promise<ReservedCode> {
  const code = randomDigits(codePolicy.length);
  await sql`select pg_advisory_xact_lock(hashtext(${`code:${target.purpose}:${target.phone}`}))`.execute(trx);
  const recent = await trx
    .selectFrom('verification_codes')
    .select([
      sql<number>`count(*)`.as('count'),
      sql<number>`coalesce(extract(epoch from (now() - max(created_at))), 1e9)`.as('secondsSinceLast'),
      sql<number>`coalesce(extract(epoch from (min(created_at) + interval '1 hour' - now())), 0)`.as(
        'secondsUntilSlot',
      ),
    ])
    .where('phone', '=', target.phone)
    .where('purpose', '=', target.purpose)
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  const sinceLast = Number(recent.secondsSinceLast);
  if (sinceLast < deps.resendAfterSeconds) {
    throw new AppError('CODE_RESEND_TOO_SOON', {
      params: { n: Math.ceil(deps.resendAfterSeconds - sinceLast) },
    });
  }
  if (Number(recent.count) >= CODES_PER_HOUR) {
    throw new AppError('TOO_MANY_ATTEMPTS', {
      params: { n: Math.max(1, Math.ceil(Number(recent.secondsUntilSlot) / 60)) },
    });
  }
  await takeSlots(
    trx,
    [
      { key: `codes:ip:${clientBucket(clientIp)}`, perHour: deps.limits.perIpPerHour },
      { key: 'codes:global', perHour: deps.limits.globalPerHour },
    ],
    'CODE_LIMIT_REACHED',
  );
  await trx
    .updateTable('verification_codes')
    .set({ expires_at: sql`now()` })
    .where('phone', '=', target.phone)
    .where('purpose', '=', target.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .execute();
  const row = await trx
    .insertInto('verification_codes')
    .values({
      phone: target.phone,
      purpose: target.purpose,
      context: target.context,
      code_hash: codeHash(deps.secret, target, code),
      expires_at: sql`now() + make_interval(secs => ${codePolicy.ttlSeconds})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, code };
}

/** Sends a committed reserved code; if it cannot be delivered, the code is removed (no 60 s wait for a resend). */
export async function deliverCode(
  deps: Pick<CodeSendingDeps, 'db' | 'notifier'>,
  reserved: ReservedCode,
  target: CodeTarget,
  message: (code: string) => string,
): Promise<void> {
  try {
    await deps.notifier.send({ phone: target.phone, purpose: target.purpose, text: message(reserved.code) });
  } catch (error) {
    // An undelivered code must not block a resend for 60 s.
    await deps.db.deleteFrom('verification_codes').where('id', '=', reserved.id).execute();
    throw error;
  }
}

/**
 * What checking a code needs. A code's tries are counted on its own row, in the statement that compares it
 * (its `attempts < 5` condition is checked again by PostgreSQL on the locked row), so concurrent wrong
 * codes can never be compared more than five times: the rule of `attempt-limits.ts` without its table.
 */
export interface CodeCheckDeps {
  db: Kysely<Database>;
  secret: string;
  credentialChecks: CredentialChecks;
}

export function codeCheckDeps(deps: Pick<AppDeps, 'db' | 'config' | 'credentialChecks'>): CodeCheckDeps {
  return { db: deps.db, secret: deps.config.sessionSecret, credentialChecks: deps.credentialChecks };
}

/**
 * The phone's latest code if it is live and `code` matches it, else null; a wrong code counts an attempt
 * (after five, or once expired or used, the code is dead). Locks the code row until `trx` ends.
 */
async function matchLatestCode(
  trx: Transaction<Database>,
  deps: CodeCheckDeps,
  target: CodeTarget,
  code: string,
): Promise<{ id: string } | null> {
  const latest = await trx
    .selectFrom('verification_codes')
    .selectAll()
    .select(sql<boolean>`expires_at > now()`.as('live'))
    .where('phone', '=', target.phone)
    .where('purpose', '=', target.purpose)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
  if (!latest || latest.used_at || !latest.live || latest.attempts >= codePolicy.maxAttempts) return null;
  deps.credentialChecks.checked('code');
  if (!safeEqual(latest.code_hash, codeHash(deps.secret, target, code))) {
    await trx
      .updateTable('verification_codes')
      .set({ attempts: sql`attempts + 1` })
      .where('id', '=', latest.id)
      .execute();
    return null;
  }
  return { id: latest.id };
}

/**
 * Throws `invalidCode` unless `code` is the phone's live code, without spending it (a wrong one counts an
 * attempt). For checks before expensive work (sign-up hashes the password only after this); the work
 * itself still runs in `withVerifiedCode`, which spends the code.
 */
export async function assertCodeMatches(
  deps: CodeCheckDeps,
  target: CodeTarget,
  code: string,
  invalidCode: ErrorCode = 'CODE_INVALID',
): Promise<void> {
  const match = await deps.db.transaction().execute((trx) => matchLatestCode(trx, deps, target, code));
  if (!match) throw new AppError(invalidCode, { fields: { code: invalidCode } });
}

/**
 * Runs `work` in one transaction with the phone's latest code consumed, if `code` is right. A wrong code
 * counts an attempt (committed even though the call fails); after five, or once expired or used, the code
 * is dead. If `work` throws, nothing is consumed and nothing of `work` is kept.
 */
export async function withVerifiedCode<T>(
  deps: CodeCheckDeps,
  target: CodeTarget,
  code: string,
  work: (trx: Transaction<Database>) => Promise<T>,
  invalidCode: ErrorCode = 'CODE_INVALID',
): Promise<T> {
  const expected = codeHash(deps.secret, target, code);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    // ONE statement checks and spends the phone's latest code, or counts a wrong try, under the row lock:
    // many requests with the same code queue on the row inside PostgreSQL, and once the first has spent it
    // the rest update nothing and fail at once, with no round trip to the app while a lock is held (issue
    // #12). The hash is compared in SQL: both sides are HMACs under the server's secret, so the comparison's
    // timing says nothing an attacker could steer (the code they send is hashed before it is compared).
    const row = await trx
      .updateTable('verification_codes')
      .set({
        used_at: sql`case when code_hash = ${expected} then now() end`,
        attempts: sql`case when code_hash = ${expected} then attempts else attempts + 1 end`,
      })
      .where(
        'id',
        '=',
        trx
          .selectFrom('verification_codes as latest')
          .select('latest.id')
          .where('latest.phone', '=', target.phone)
          .where('latest.purpose', '=', target.purpose)
          .orderBy('latest.created_at', 'desc')
          .limit(1),
      )
      .where('used_at', 'is', null)
      .where(sql<boolean>`expires_at > now()`)
      .where('attempts', '<', codePolicy.maxAttempts)
      .returning(sql<boolean>`used_at is not null`.as('spent'))
      .executeTakeFirst();
    // A row came back only if the code was live with tries left, and so was compared.
    if (row) deps.credentialChecks.checked('code');
    if (!row?.spent) return { ok: false as const };
    return { ok: true as const, value: await work(trx) };
  });
  if (!outcome.ok) throw codeRefused(invalidCode);
  return outcome.value;
}

/** The refusal of a wrong, spent or expired code, on the code field. */
export function codeRefused(invalidCode: ErrorCode = 'CODE_INVALID') {
  return new AppError(invalidCode, { fields: { code: invalidCode } });
}

/**
 * The context of the phone's latest code for `purpose` if it can still be used (not used, not expired,
 * tries left), else null. Contexts are not secret; this lets a use case tell "the code was bound to
 * something that has changed since" apart from a wrong code, without spending one of its tries.
 */
export async function liveCodeContext(
  db: Kysely<Database>,
  target: Omit<CodeTarget, 'context'>,
): Promise<string | null> {
  const row = await db.selectNoFrom(liveCodeContextSql(target).as('context')).executeTakeFirstOrThrow();
  return row.context;
}

/** `liveCodeContext` as a scalar subquery, to read next to other facts in one statement. */
export function liveCodeContextSql(target: Omit<CodeTarget, 'context'>) {
  return sql<string | null>`(select case
      when c.used_at is null and c.expires_at > now() and c.attempts < ${codePolicy.maxAttempts} then c.context
    end
    from verification_codes c where c.phone = ${target.phone} and c.purpose = ${target.purpose}
    order by c.created_at desc limit 1)`;
}
