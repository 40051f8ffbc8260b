import type { FastifyBaseLogger } from 'fastify';
import type { CodePurpose } from '../../domain/codes';

export interface SmsMessage {
  phone: string;
  text: string;
  /** `loan_update`: the message of a change to the borrower's application or loan (docs/decisions/041). */
  purpose: CodePurpose | 'payment_reminder' | 'complaint_update' | 'loan_update';
  /**
   * The same message sent again (a retry after a crash) carries the same key, so the gateway can drop the
   * copy: the SMS outbox sends its row id (docs/decisions/013).
   */
  idempotencyKey?: string;
}

export interface OutboxEntry extends SmsMessage {
  sentAt: string;
}

/** Sends text messages to a borrower's own phone. Implementations must never log codes in production. */
export interface Notifier {
  send(message: SmsMessage): Promise<void>;
  /** Latest messages for a phone, newest first; only the development outbox keeps any. */
  outbox?(phone: string): OutboxEntry[];
}

const OUTBOX_LIMIT_PER_PHONE = 20;
const KEYS_REMEMBERED = 10_000;

/**
 * Development notifier: keeps recent messages in memory for `GET /api/dev/outbox` and prints them to the
 * server log. With the dev outbox off it keeps and prints nothing of the text, so no code leaks.
 */
export class OutboxNotifier implements Notifier {
  private readonly byPhone = new Map<string, OutboxEntry[]>();
  /** Idempotency keys already delivered, like a gateway that honours them (oldest forgotten first). */
  private readonly keys = new Set<string>();

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly keepMessages: boolean,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    if (!this.keepMessages) {
      this.log.warn(
        { phone: maskPhone(message.phone), purpose: message.purpose },
        'SMS not delivered: NOTIFIER=outbox with DEV_OUTBOX off; configure NOTIFIER=webhook',
      );
      return;
    }
    if (message.idempotencyKey !== undefined) {
      if (this.keys.has(message.idempotencyKey)) return;
      this.keys.add(message.idempotencyKey);
      if (this.keys.size > KEYS_REMEMBERED) this.keys.delete(this.keys.values().next().value as string);
    }
    const { idempotencyKey: _key, ...sms } = message;
    const entry = { ...sms, sentAt: new Date().toISOString() };
    const list = this.byPhone.get(message.phone) ?? [];
    list.unshift(entry);
    list.length = Math.min(list.length, OUTBOX_LIMIT_PER_PHONE);
    this.byPhone.set(message.phone, list);
    this.log.info({ outbox: entry }, 'dev outbox: SMS');
  }

  outbox(phone: string): OutboxEntry[] {
    return this.keepMessages ? [...(this.byPhone.get(phone) ?? [])] : [];
  }
}

/**
 * Production notifier: POSTs `{ to, text, purpose }` as JSON to a configured SMS gateway webhook, with the
 * message's idempotency key (when it has one) as `id` and in the `Idempotency-Key` header.
 */
export class WebhookNotifier implements Notifier {
  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(message.idempotencyKey ? { 'idempotency-key': message.idempotencyKey } : {}),
      },
      body: JSON.stringify({
        to: message.phone,
        text: message.text,
        purpose: message.purpose,
        ...(message.idempotencyKey ? { id: message.idempotencyKey } : {}),
      }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      this.log.error(
        { status: response.status, phone: maskPhone(message.phone) },
        'SMS webhook refused the message',
      );
      throw new Error(`SMS webhook answered ${response.status}`);
    }
  }
}

export function maskPhone(phone: string): string {
  return phone.length <= 4 ? '****' : `${'*'.repeat(phone.length - 4)}${phone.slice(-4)}`;
}
