import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplication, seedBorrowerWithApplication, storedStatus } from '../test-support/seed';
import { openPendingStream, until } from '../test-support/sse';
import { startTcpProxy } from '../test-support/tcp-proxy';
import { createTestApp, silentLogger, type TestApp, testDbKind } from '../test-support/test-app';
import { type EventBus, PostgresEventBus, type StaffEvent } from './bus';

/** A bus whose every publish fails, as when the NOTIFY connection has just dropped. */
class FailingBus implements EventBus {
  readonly attempts: StaffEvent[] = [];
  async publish(event: StaffEvent) {
    this.attempts.push(event);
    throw new Error('notify failed');
  }
  subscribe() {
    return () => {};
  }
  subscribeSessionChanges() {
    return () => {};
  }
  subscribeAnswerChanges() {
    return () => {};
  }
  async close() {}
}

describe('after-commit events', () => {
  let t: TestApp;
  const bus = new FailingBus();
  beforeAll(async () => {
    t = await createTestApp({ events: bus });
  });
  afterAll(() => t.close());

  it('a failing live update never turns a saved change into an error', async () => {
    const officer = await t.signInStaff('officer');
    const status = (id: string) => storedStatus(t.db, 'applications', id);

    const { id: toApprove } = await seedBorrowerWithApplication(t);
    const { id: toReject } = await seedBorrowerWithApplication(t);
    const published = bus.attempts.length;

    // A reduction the borrower asked for applies at once (docs/decisions/018).
    const terms = await officer.post(`/api/staff/applications/pending/${toApprove}/terms`, {
      amount: 90000,
      termMonths: 12,
      borrowerRequested: true,
      reason: 'Borrower asked for less',
    });
    expect(terms.status, terms.text).toBe(200);
    expect(terms.body.amountMinor).toBe(9_000_000);
    const approve = await officer.post(`/api/staff/applications/${toApprove}/approve`, { creditScore: 600 });
    expect(approve.status, approve.text).toBe(200);
    expect(await status(toApprove)).toBe('approved');
    const reject = await officer.post(`/api/staff/applications/${toReject}/reject`, { reason: 'No' });
    expect(reject.status, reject.text).toBe(200);
    expect(await status(toReject)).toBe('rejected');
    // Each change tried to tell the screens (and failed).
    expect(bus.attempts.length - published).toBe(3);
  });
});

/** The LISTEN connection of a PostgreSQL deployment survives losing its connection. */
describe.runIf(testDbKind() === 'postgres')('PostgreSQL live updates', () => {
  let t: TestApp;
  let other: PostgresEventBus;
  beforeAll(async () => {
    t = await createTestApp({ postgresEvents: true });
    // A second instance on the same database.
    other = new PostgresEventBus(t.databaseUrl!, silentLogger);
    await other.start();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  /** A connection to the cluster's `postgres` database (a database cannot refuse connections to itself). */
  async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const url = new URL(t.databaseUrl!);
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.end();
    }
  }
  const database = () => new URL(t.databaseUrl!).pathname.slice(1);
  const allowConnections = (allow: boolean) =>
    asAdmin((admin) => admin.query(`alter database "${database()}" allow_connections ${allow}`));
  const terminate = (pid: number) =>
    asAdmin(async (admin) => {
      const { rows } = await admin.query('select pg_terminate_backend($1) as done', [pid]);
      expect(rows[0].done).toBe(true);
    });

  it('reconnects and LISTENs again after its connection is killed; the staff stream keeps delivering', async () => {
    const bus = t.deps.events as PostgresEventBus;
    expect(bus).toBeInstanceOf(PostgresEventBus);
    const received: StaffEvent[] = [];
    const unsubscribe = bus.subscribe((event) => received.push(event));
    // The session cache's announcements (docs/decisions/027) travel on the same connection.
    const sessionChanges: (string | null)[] = [];
    const stopSessions = bus.subscribeSessionChanges((userId) => sessionChanges.push(userId));
    const everything = () => sessionChanges.filter((userId) => userId === null).length;
    // And the back-office answers' (docs/decisions/030).
    let answerChanges = 0;
    const stopAnswers = bus.subscribeAnswerChanges(() => {
      answerChanges += 1;
    });

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const officer = await t.signInStaff('officer');
    const stream = await openPendingStream(baseUrl, officer);
    try {
      await until(() => stream.counts.length === 1);
      const start = stream.counts[0]!;

      // Killed twice. The second time the database refuses new connections for a while, so several
      // reconnects fail in a row before one succeeds: the listener must keep trying, not give up.
      for (const round of [1, 2]) {
        const before = bus.listenerPid;
        expect(before).not.toBeNull();
        const everythingBefore = everything();
        const answerChangesBefore = answerChanges;
        if (round === 2) await allowConnections(false);
        try {
          await terminate(before!);
          if (round === 2) {
            await new Promise((resolve) => setTimeout(resolve, 1_500));
            expect(bus.listenerPid).toBeNull();
          }
        } finally {
          if (round === 2) await allowConnections(true);
        }
        await until(() => bus.listenerPid !== null && bus.listenerPid !== before, 10_000);
        // Announcements sent while nobody listened are lost: "anyone's sessions" when it dropped and when back.
        expect(everything() - everythingBefore).toBeGreaterThanOrEqual(2);
        expect(answerChanges - answerChangesBefore).toBeGreaterThanOrEqual(2);

        // Another instance changes something and tells everyone through NOTIFY.
        const { user } = await t.signUpBorrower();
        await seedApplication(t.db, { borrowerId: user.id });
        await other.publish({ type: 'applications-changed' });
        await until(() => received.length >= round);
        await until(() => stream.counts.at(-1) === start + round);
        // And the database's announcements are heard again.
        await t.db.updateTable('users').set({ avatar: 2 }).where('id', '=', user.id).execute();
        await until(() => sessionChanges.includes(user.id));
        const heard = answerChanges;
        await t.db.updateTable('users').set({ avatar: 3 }).where('id', '=', user.id).execute();
        await until(() => answerChanges > heard);
      }
    } finally {
      stream.close();
      unsubscribe();
      stopSessions();
      stopAnswers();
    }
  });

  it('notices a connection that stops answering without closing, announces it and reconnects', async () => {
    const target = new URL(t.databaseUrl!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    const viaProxy = new URL(target);
    viaProxy.port = String(proxy.port);
    const bus = new PostgresEventBus(viaProxy.toString(), silentLogger, { intervalMs: 100, timeoutMs: 300 });
    const sessionChanges: (string | null)[] = [];
    bus.subscribeSessionChanges((userId) => sessionChanges.push(userId));
    try {
      await bus.start();
      const first = bus.listenerPid;
      expect(first).not.toBeNull();
      // Healthy: many heartbeats answered, nothing announced, the same connection.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(sessionChanges).toEqual([]);
      expect(bus.listenerPid).toBe(first);

      // The path goes quiet: no error, no close, just no bytes — and new connections hang too.
      proxy.freeze();
      await until(() => sessionChanges.includes(null), 3_000);
      expect(bus.listenerPid).toBeNull();
      // Reconnecting while frozen times out rather than hanging: the bus keeps trying.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(bus.listenerPid).toBeNull();

      proxy.thaw();
      await until(() => bus.listenerPid !== null, 10_000);
      expect(bus.listenerPid).not.toBe(first);
      // Announced again when back, and the database's announcements are heard once more.
      expect(sessionChanges.filter((userId) => userId === null).length).toBeGreaterThanOrEqual(2);
      const { user } = await t.signUpBorrower();
      await t.db.updateTable('users').set({ avatar: 3 }).where('id', '=', user.id).execute();
      await until(() => sessionChanges.includes(user.id));
    } finally {
      await bus.close();
      await proxy.close();
    }
  });

  it('closes at once even when its connection stopped answering', async () => {
    const target = new URL(t.databaseUrl!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    const viaProxy = new URL(target);
    viaProxy.port = String(proxy.port);
    // A heartbeat too slow to notice anything during the test: only close's own limit can end the wait.
    const bus = new PostgresEventBus(viaProxy.toString(), silentLogger, {
      intervalMs: 60_000,
      timeoutMs: 500,
    });
    try {
      await bus.start();
      proxy.freeze();
      const started = Date.now();
      await bus.close();
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await proxy.close();
    }
  });

  it('stops reconnecting once closed', async () => {
    const bus = new PostgresEventBus(t.databaseUrl!, silentLogger);
    await bus.start();
    const pid = bus.listenerPid!;
    await bus.close();
    // Longer than the first reconnect delay: a bus that retried after close would be listening again.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(bus.listenerPid).toBeNull();
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where pid = $1', [
        pid,
      ]);
      expect(rows[0].n).toBe(0);
    } finally {
      await admin.end();
    }
  });
});

describe('HEAD /api/staff/events (issue #15)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers at once with the stream headers and no stream; signed out it is 401', async () => {
    const officer = await t.signInStaff('officer');
    const head = await officer.request('HEAD', '/api/staff/events');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toContain('text/event-stream');
    expect(head.text).toBe('');
    expect((await t.agent().request('HEAD', '/api/staff/events')).status).toBe(401);
  }, 10_000);
});
