import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../domain/errors';

/** A signed notification older than this is a replay (issue #10: five minutes). */
export const WEBHOOK_MAX_AGE_SECONDS = 5 * 60;
/** How far ahead of our clock the provider's clock may be. */
export const WEBHOOK_FUTURE_SKEW_SECONDS = 60;

/** "sha256=" + hex HMAC-SHA256 of "<timestamp>.<raw body>": the timestamp is signed with the body. */
export function signPaymentWebhook(secret: string, timestamp: string, rawBody: Buffer | string): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(rawBody);
  return `sha256=${mac.digest('hex')}`;
}

/**
 * Refuses a notification whose timestamp is missing, stale or from the future, or whose signature does not
 * match the raw bytes received. The signature is compared in constant time.
 */
export function verifyPaymentWebhook(input: {
  secret: string;
  rawBody: Buffer;
  timestamp: string | string[] | undefined;
  signature: string | string[] | undefined;
  now: Date;
}): void {
  const { timestamp, signature } = input;
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) {
    throw new AppError('WEBHOOK_TIMESTAMP_INVALID');
  }
  const age = Math.floor(input.now.getTime() / 1000) - Number(timestamp);
  if (age > WEBHOOK_MAX_AGE_SECONDS || age < -WEBHOOK_FUTURE_SKEW_SECONDS) {
    throw new AppError('WEBHOOK_TIMESTAMP_INVALID');
  }
  if (typeof signature !== 'string') throw new AppError('WEBHOOK_SIGNATURE_INVALID');
  const expected = Buffer.from(signPaymentWebhook(input.secret, timestamp, input.rawBody));
  const given = Buffer.from(signature.trim().toLowerCase());
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError('WEBHOOK_SIGNATURE_INVALID');
  }
}
