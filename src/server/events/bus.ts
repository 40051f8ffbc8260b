import { EventEmitter } from 'node:events';
import { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { withinTime } from '../lib/within-time';

/** Something changed that open back-office screens should refresh (e.g. the pending count). */
export interface StaffEvent {
  type:
    | 'applications-changed'
    | 'disbursements-changed'
    | 'repayments-changed'
    | 'users-changed'
    | 'complaints-changed';
}

export interface EventBus {
  /** Call after the change has committed. Delivery is best effort: screens also poll every 30 s. */
  publish(event: StaffEvent): Promise<void>;
  subscribe(handler: (event: StaffEvent) => void): () => void;
  /**
   * Users whose sessions changed in the database, as migration 018's triggers announce them (null: anyone's,
   * when announcements may have been missed). Only a bus listening to PostgreSQL hears them; one process on
   * the embedded database hears them from PGlite itself (db/open.ts, `listen`).
   */
  subscribeSessionChanges(handler: SessionChangeHandler): () => void;
  /**
   * A table a back-office answer reads changed, as migration 020's triggers announce it (its name since
   * migration 034, or a write request's marker), or null: announcements may have been missed. Heard the
   * same way as session changes.
   */
  subscribeAnswerChanges(handler: AnswerChangeHandler): () => void;
  close(): Promise<void>;
}

export type SessionChangeHandler = (userId: string | null) => void;
export type AnswerChangeHandler = (payload: string | null) => void;

/** The channel migration 018's triggers notify with the id of a user whose sessions changed. */
export const SESSION_CHANGES_CHANNEL = 'hiram_sessions';

/** The channel migration 020's triggers notify when a table a back-office answer reads changed. */
export const ANSWER_CHANGES_CHANNEL = 'hiram_answers';

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
  subscribeSessionChanges(_handler: SessionChangeHandler) {
    return () => {};
  }
  subscribeAnswerChanges(_handler: AnswerChangeHandler) {
    return () => {};
  }
  async close() {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = 'hiram_staff_events';

/** Reconnect delays for the listening connection: 0.25 s, doubling, at most 30 s, for as long as it runs. */
export const RECONNECT_BASE_MS = 250;
export const RECONNECT_MAX_MS = 30_000;

export function reconnectDelayMs(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(attempt, 20));
}

/**
 * How often the listening connection is asked a trivial question, and how long an answer may take before the
 * connection counts as lost (also the limit on establishing one).
 */
export interface ListenerHeartbeat {
  intervalMs: number;
  timeoutMs: number;
}

export const LISTENER_HEARTBEAT: ListenerHeartbeat = { intervalMs: 10_000, timeoutMs: 5_000 };

/**
 * Several instances on PostgreSQL: events travel through LISTEN/NOTIFY, so a submission handled by one
 * instance updates badges on screens connected to another. One listening connection per instance; when it
 * drops (a restart, a failover, an idle timeout), it is re-established with capped exponential backoff and
 * LISTENs again, for as long as the bus is not closed. Meanwhile events still reach this instance's screens.
 *
 * A connection that goes quiet without closing (a network device dropped it, the database host froze) would
 * deliver nothing and never say so — TCP keepalive notices only after the operating system's timers, often two
 * hours. So the connection is asked `select 1` every `intervalMs`; no answer within `timeoutMs` counts as a
 * loss like any other: "anyone's sessions" is announced, nothing is cached meanwhile, and it reconnects.
 */
export class PostgresEventBus implements EventBus {
  private readonly local = new MemoryEventBus();
  private client: pg.Client | null = null;
  private pid: number | null = null;
  private closed = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;
  /** Stops the current connection's heartbeat and closes its socket. */
  private hangUp: (() => void) | null = null;
  private readonly sessionHandlers = new Set<SessionChangeHandler>();
  private readonly answerHandlers = new Set<AnswerChangeHandler>();

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
    private readonly heartbeat: ListenerHeartbeat = LISTENER_HEARTBEAT,
  ) {}

  /** The backend process id of the listening connection (null while reconnecting); for tests and logs. */
  get listenerPid(): number | null {
    return this.pid;
  }

  /** Connects and LISTENs; a failure here stops the start, later losses are retried. */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    // Our own socket, so that a connection that stopped answering can be closed at once: ending it politely
    // waits for an answer that will not come. TCP keepalive as well, for what the heartbeat does not cover.
    const socket = new Socket();
    // Loaded here: a PGlite start never needs pg (issue #35).
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({
      connectionString: this.url,
      keepAlive: true,
      // Connecting may not wait longer than a heartbeat does (nor may setting up: `setUp` below).
      connectionTimeoutMillis: this.heartbeat.timeoutMs,
      stream: () => socket,
    });
    let lost = false;
    let heartbeat: NodeJS.Timeout | undefined;
    const hangUp = () => {
      clearInterval(heartbeat);
      socket.destroy();
    };
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) {
        this.client = null;
        this.pid = null;
        this.hangUp = null;
      }
      client.end().catch(() => {});
      hangUp();
      if (this.closed) return;
      // Announcements sent until the connection is back are lost: whatever was read before may be stale.
      this.announceMissed();
      this.log.warn({ err: error }, 'event listener connection lost; reconnecting');
      this.scheduleReconnect();
    };
    client.on('notification', (message) => {
      try {
        if (message.channel === SESSION_CHANGES_CHANNEL) this.announceSessionChange(message.payload || null);
        else if (message.channel === ANSWER_CHANGES_CHANNEL) this.announceAnswerChange(message.payload ?? '');
        else if (message.channel === CHANNEL && message.payload)
          void this.local.publish(JSON.parse(message.payload));
      } catch (error) {
        this.log.warn({ err: error }, 'bad staff event payload');
      }
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      const { timeoutMs } = this.heartbeat;
      const setUp = (text: string) =>
        withinTime(
          client.query<{ pid: number }>(text),
          timeoutMs,
          `no answer to "${text}" within ${timeoutMs} ms`,
        );
      await setUp(`listen ${CHANNEL}`);
      await setUp(`listen ${SESSION_CHANGES_CHANNEL}`);
      await setUp(`listen ${ANSWER_CHANGES_CHANNEL}`);
      const { rows } = await setUp('select pg_backend_pid() as pid');
      // Closed meanwhile, or lost meanwhile (onLost has already arranged the reconnection).
      if (this.closed || lost) {
        lost = true;
        client.end().catch(() => {});
        hangUp();
        return;
      }
      this.client = client;
      this.pid = rows[0]?.pid ?? null;
      heartbeat = this.startHeartbeat(client, onLost);
      this.hangUp = hangUp;
      // A reconnection: changes made while nobody listened were not heard.
      if (this.attempt > 0) this.announceMissed();
      this.attempt = 0;
    } catch (error) {
      // Not connected: no retry from here (the caller decides); listeners must not schedule one either.
      lost = true;
      client.end().catch(() => {});
      hangUp();
      throw error;
    }
  }

  /** Asks the connection `select 1` every interval; no answer in time (or an error) is a lost connection. */
  private startHeartbeat(client: pg.Client, onLost: (error: Error) => void): NodeJS.Timeout {
    const { intervalMs, timeoutMs } = this.heartbeat;
    let asking = false;
    const timer = setInterval(() => {
      if (asking) return;
      asking = true;
      withinTime(
        client.query('select 1'),
        timeoutMs,
        `the event listener connection did not answer within ${timeoutMs} ms`,
      ).then(
        () => {
          asking = false;
        },
        (error: Error) => onLost(error),
      );
    }, intervalMs);
    timer.unref();
    return timer;
  }

  private scheduleReconnect() {
    if (this.closed || this.retry) return;
    const delay = reconnectDelayMs(this.attempt);
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.closed) return;
      this.connect().then(
        () => this.log.info('event listener reconnected'),
        (error) => {
          this.log.warn({ err: error, attempt: this.attempt }, 'event listener reconnect failed');
          this.scheduleReconnect();
        },
      );
    }, delay);
    this.retry.unref();
  }

  private sending: Promise<unknown> = Promise.resolve();

  async publish(event: StaffEvent) {
    const client = this.client;
    // Not connected: at least this instance's screens hear of it.
    if (!client) return this.local.publish(event);
    // One connection, one query at a time: notifications queue behind each other.
    const send = this.sending.then(() =>
      client.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]),
    );
    this.sending = send.catch(() => {});
    try {
      await send;
    } catch (error) {
      await this.local.publish(event);
      throw error;
    }
  }

  subscribe(handler: (event: StaffEvent) => void) {
    return this.local.subscribe(handler);
  }

  subscribeSessionChanges(handler: SessionChangeHandler) {
    this.sessionHandlers.add(handler);
    return () => void this.sessionHandlers.delete(handler);
  }

  subscribeAnswerChanges(handler: AnswerChangeHandler) {
    this.answerHandlers.add(handler);
    return () => void this.answerHandlers.delete(handler);
  }

  private announceSessionChange(userId: string | null) {
    for (const handler of this.sessionHandlers) handler(userId);
  }

  private announceAnswerChange(payload: string | null) {
    for (const handler of this.answerHandlers) handler(payload);
  }

  /** Announcements may have been missed: anyone's sessions and every answer may be stale. */
  private announceMissed() {
    this.announceSessionChange(null);
    this.announceAnswerChange(null);
  }

  async close() {
    this.closed = true;
    this.sessionHandlers.clear();
    this.answerHandlers.clear();
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    const hangUp = this.hangUp;
    this.client = null;
    this.pid = null;
    this.hangUp = null;
    // Politely, but not for longer than a heartbeat waits: a connection that stopped answering never will.
    await withinTime(client?.end() ?? Promise.resolve(), this.heartbeat.timeoutMs, 'end').catch(() => {});
    hangUp?.();
    await this.local.close();
  }
}
