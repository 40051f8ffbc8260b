import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { signPaymentWebhook } from '../../src/server/features/repayments/webhook-signature';
import { baseUrl } from './browser';

/**
 * The payment provider tells the server of a payment, signed as the provider signs it (the webhook's
 * secret), at `now` — the server's time when its clock runs ahead (TEST_CLOCK_START). Answers the
 * server's outcome (applied, held in Unapplied…); any refusal fails the test with the server's words.
 */
export async function providerPays(
  secret: string,
  payment: {
    paymentReference: string;
    amountMinor: number;
    payerName?: string;
    payerPhone?: string;
    memo?: string;
    reference?: string;
  },
  now: Date = new Date(),
): Promise<{ outcome: string; reason: string | null }> {
  const body = JSON.stringify({
    reference: `PROVIDER-${randomUUID()}`,
    currency: 'PHP',
    receivedAt: now.toISOString(),
    ...payment,
  });
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const response = await fetch(`${baseUrl()}/api/payments/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hiram-timestamp': timestamp,
      'x-hiram-signature': signPaymentWebhook(secret, timestamp, body),
    },
    body,
  });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return JSON.parse(text) as { outcome: string; reason: string | null };
}
