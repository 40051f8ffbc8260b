import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplication } from '../../test-support/seed';
import { openPendingStream, until } from '../../test-support/sse';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

let t: TestApp;
let officer: Agent;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  officer = await t.signInStaff('officer');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const openStream = (agent: Agent) => openPendingStream(baseUrl, agent);

describe('live pending count', () => {
  it('pushes the count on connect, on every submission and on every decision', async () => {
    const stream = await openStream(officer);
    try {
      expect(stream.response.statusCode).toBe(200);
      expect(stream.response.headers['content-type']).toContain('text/event-stream');
      await until(() => stream.counts.length === 1);
      const start = stream.counts[0]!;

      // A real submission through the borrower routes raises it.
      const { user } = await t.signUpBorrower();
      const id = await seedApplication(t.db, { borrowerId: user.id });
      await t.deps.events.publish({ type: 'applications-changed' });
      await until(() => stream.counts.at(-1) === start + 1);

      expect((await officer.post(`/api/staff/applications/${id}/approve`, {})).status).toBe(200);
      await until(() => stream.counts.at(-1) === start);

      const count = await officer.get('/api/staff/pending-count');
      expect(count.body.count).toBe(start);
    } finally {
      stream.close();
    }
  });

  it('refuses borrowers and signed-out visitors', async () => {
    const { phone, password } = await t.signUpBorrower();
    const borrower = await t.loginAs(phone, password);
    const stream = await openStream(borrower);
    expect(stream.response.statusCode).toBe(403);
    stream.close();
    const anonymous = await openStream(t.agent());
    expect(anonymous.response.statusCode).toBe(401);
    anonymous.close();
  });
});
