import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** Something changed that open back-office screens should refresh (e.g. the pending count). */
export interface StaffEvent {
  type: 'applications-changed' | 'disbursements-changed' | 'users-changed';
}

export interface EventBus {
  /** Call after the change has committed. Delivery is best effort: screens also poll every 30 s. */
  publish(event: StaffEvent): Promise<void>;
  subscribe(handler: (event: StaffEvent) => void): () => void;
  close(): Promise<void>;
}

/** One process (the embedded database allows no other): an in-memory emitter. */
export class MemoryEventBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(event: StaffEvent) {
    this.emitter.emit('event', event);
  }
  subscribe(handler: (event: StaffEvent) => void) {
    this.emitter.on('event', handler);
    return () => void this.emitter.off('event', handler);
  }
  async close() {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = 'hiram_staff_events';

/**
 * Several instances on PostgreSQL: events travel through LISTEN/NOTIFY, so a submission handled by one
 * instance updates badges on screens connected to another. One listening connection per instance,
 * re-established if it drops.
 */
export class PostgresEventBus implements EventBus {
  private readonly local = new MemoryEventBus();
  private client: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      try {
        if (message.channel === CHANNEL && message.payload)
          void this.local.publish(JSON.parse(message.payload));
      } catch (error) {
        this.log.warn({ err: error }, 'bad staff event payload');
      }
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'event listener connection lost; reconnecting');
      this.client = null;
      client.end().catch(() => {});
      if (!this.closed) setTimeout(() => void this.start().catch(() => {}), 1000).unref();
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    this.client = client;
  }

  private sending: Promise<unknown> = Promise.resolve();

  async publish(event: StaffEvent) {
    const client = this.client;
    if (!client) return this.local.publish(event);
    // One connection, one query at a time: notifications queue behind each other.
    const send = this.sending.then(() =>
      client.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]),
    );
    this.sending = send.catch(() => {});
    await send;
  }

  subscribe(handler: (event: StaffEvent) => void) {
    return this.local.subscribe(handler);
  }

  async close() {
    this.closed = true;
    await this.client?.end().catch(() => {});
    await this.local.close();
  }
}
