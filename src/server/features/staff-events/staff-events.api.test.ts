import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplication } from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

let t: TestApp;
let officer: Agent;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  const o = await t.createUser({ role: 'officer' });
  officer = await t.loginAs(o.user.username!, o.password);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** Opens the event stream with the agent's cookies and collects `pending` counts as they arrive. */
function openStream(
  agent: Agent,
): Promise<{ counts: number[]; response: IncomingMessage; close: () => void }> {
  return new Promise((resolve, reject) => {
    const cookie = [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const req = httpRequest(`${baseUrl}/api/staff/events`, { headers: { cookie } }, (response) => {
      const counts: number[] = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: pending$/m.test(block) && data) counts.push(JSON.parse(data).count);
          end = buffer.indexOf('\n\n');
        }
      });
      resolve({ counts, response, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(check()).toBe(true);
}

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
