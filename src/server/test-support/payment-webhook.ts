import { signPaymentWebhook } from '../features/repayments/webhook-signature';
import type { Agent, ApiResponse } from './test-app';

/**
 * Posts `body` to the payment webhook as the provider does: JSON, stamped with the time `at` (default now)
 * and signed with `secret`.
 */
export function deliverPaymentWebhook(
  agent: Agent,
  secret: string,
  body: unknown,
  at: Date = new Date(),
): Promise<ApiResponse> {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return agent.request('POST', '/api/payments/webhook', {
    raw,
    headers: {
      'content-type': 'application/json',
      'x-hiram-timestamp': timestamp,
      'x-hiram-signature': signPaymentWebhook(secret, timestamp, raw),
    },
  });
}
