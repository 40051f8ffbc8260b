import { describe, expect, it } from 'vitest';
import { signPaymentWebhook, verifyPaymentWebhook } from './webhook-signature';

const secret = 'a-shared-secret-of-at-least-32-characters';
const body = Buffer.from('{"reference":"P-1","amountMinor":100}');
const now = new Date('2026-11-23T10:00:00Z');
const ts = String(now.getTime() / 1000);

const verify = (overrides: Partial<Parameters<typeof verifyPaymentWebhook>[0]>) => () =>
  verifyPaymentWebhook({
    secret,
    rawBody: body,
    timestamp: ts,
    signature: signPaymentWebhook(secret, ts, body),
    now,
    ...overrides,
  });
const code = (fn: () => void) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('payment webhook signature', () => {
  it('accepts the signature of the exact bytes and timestamp', () => {
    expect(code(verify({}))).toBe('ok');
    expect(signPaymentWebhook(secret, ts, body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('refuses a changed body, another secret, another timestamp or a malformed signature', () => {
    expect(code(verify({ rawBody: Buffer.from(`${body} `) }))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(verify({ signature: signPaymentWebhook(`${secret}x`, ts, body) }))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
    const earlier = String(Number(ts) - 1);
    expect(code(verify({ timestamp: earlier }))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(verify({ signature: 'sha256=00' }))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(verify({ signature: undefined }))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('refuses a missing, stale (over 5 minutes) or future timestamp', () => {
    const signedAt = (seconds: number) => {
      const t = String(Number(ts) + seconds);
      return verify({ timestamp: t, signature: signPaymentWebhook(secret, t, body) });
    };
    expect(code(verify({ timestamp: undefined }))).toBe('WEBHOOK_TIMESTAMP_INVALID');
    expect(code(verify({ timestamp: 'yesterday' }))).toBe('WEBHOOK_TIMESTAMP_INVALID');
    expect(code(signedAt(-300))).toBe('ok');
    expect(code(signedAt(-301))).toBe('WEBHOOK_TIMESTAMP_INVALID');
    expect(code(signedAt(60))).toBe('ok');
    expect(code(signedAt(61))).toBe('WEBHOOK_TIMESTAMP_INVALID');
  });
});
