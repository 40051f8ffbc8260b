import type { Readable } from 'node:stream';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, it } from 'vitest';
import { hashPassword } from './auth/passwords';
import { signPaymentWebhook } from './features/repayments/webhook-signature';
import { expectErrorShape } from './test-support/api-assertions';
import {
  bodyFor,
  headerValue,
  type JsonSchema,
  pathParamFor,
  queryFor,
  type RawBody,
} from './test-support/fuzz-arbitraries';
import { seedRouteFixtures } from './test-support/route-fixtures';
import { type Agent, createTestApp } from './test-support/test-app';

/**
 * Property-based fuzzing of the whole API (issue #15): for every route of the OpenAPI document — so a new
 * route is covered without touching this file — and every kind of caller, generated bad input (arbitraries
 * derived from the route's schema: wrong types, NUL, lone surrogates, huge strings, extreme numbers and
 * dates, extra fields, malformed JSON and multipart, bad path params and query strings) never gets a 5xx,
 * and every 4xx has the one error shape. GET routes are fuzzed as HEAD too.
 *
 * FUZZ_RUNS inputs per route, shared by the five callers (default 60 in `npm test`, 12 per caller;
 * `npm run fuzz` sends 10,000 per route). FUZZ_SEED replays a run. The app and database are this file's
 * own; state-changing routes may succeed with some inputs, which is fine: callers are signed in again
 * (their password reset in the database) when a generated request ended their session.
 */
const callerNames = ['signedOut', 'borrower', 'officer', 'finance', 'admin'] as const;
type Caller = (typeof callerNames)[number];
const RUNS = Math.max(1, Math.ceil(Number(process.env.FUZZ_RUNS ?? 60) / callerNames.length));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const WEBHOOK_SECRET = 'fuzz-webhook-secret-0123456789-abcdefghijkl';
/** Time per route and caller: the long mode needs far more than the suite's 30 s. */
const TIMEOUT = Math.max(30_000, RUNS * 400);

const t = await createTestApp({
  config: { paymentsWebhook: { secret: WEBHOOK_SECRET, channel: 'gcash' } },
});
afterAll(() => t.close());

const password = 'fuzz-password-1';
const passwordHash = await hashPassword(password);
const owner = await t.signUpBorrower(undefined, password);
const users: Partial<Record<Caller, { id: string; login: string }>> = {
  borrower: { id: owner.user.id, login: owner.phone },
};
for (const role of ['officer', 'finance', 'admin'] as const) {
  const { user } = await t.createUser({ role, password });
  users[role] = { id: user.id, login: user.username! };
}
const fixtures = await seedRouteFixtures(t, { id: owner.user.id, phone: owner.phone });
const ids = [...Object.values(fixtures), ...Object.values(users).map((u) => u.id)];
const agents = {} as Record<Caller, Agent>;

/** Signs the caller in again if a generated request ended its session (logout, a password reset…). */
async function ensureSignedIn(caller: Caller): Promise<Agent> {
  const user = users[caller];
  const current = agents[caller];
  if (!user) {
    agents[caller] ??= t.agent();
    return agents[caller];
  }
  if (current) {
    const me = await current.get('/api/me');
    if (me.body?.user?.id === user.id && !me.body.user.mustChangePassword) return current;
  }
  const role = caller as Exclude<Caller, 'signedOut'>;
  const [restored] = await t.db
    .updateTable('users')
    .set({ password_hash: passwordHash, must_change_password: false, status: 'active', role })
    .where('id', '=', user.id)
    .execute();
  if (restored?.numUpdatedRows === 0n && role !== 'borrower') {
    // A fuzzed DELETE /api/admin/users/{id} removed this staff member (they own nothing): a new one stands in.
    const { user: replacement } = await t.createUser({ role, password });
    users[caller] = { id: replacement.id, login: replacement.username! };
  }
  await t.db.deleteFrom('login_throttle').execute();
  // A new browser (and client address): the old address may be throttled by the fuzzed logins.
  agents[caller] = await t.loginAs(users[caller]!.login, password);
  return agents[caller];
}

interface Operation {
  method: string;
  /** OpenAPI path, e.g. /api/files/{id}. */
  path: string;
  pathParams: string[];
  query: JsonSchema[];
  headers: JsonSchema[];
  body: JsonSchema | undefined;
}

const document = t.app.swagger() as unknown as { paths: Record<string, Record<string, JsonSchema>> };
const operations: Operation[] = [];
for (const [path, methods] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(methods)) {
    const parameters = (operation.parameters ?? []) as JsonSchema[];
    const op: Operation = {
      method: method.toUpperCase(),
      path,
      pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name as string),
      query: parameters.filter((p) => p.in === 'query'),
      headers: parameters.filter((p) => p.in === 'header'),
      body: operation.requestBody?.content?.['application/json']?.schema,
    };
    operations.push(op);
    if (op.method === 'GET') operations.push({ ...op, method: 'HEAD' });
  }
}

interface GeneratedRequest {
  url: string;
  body: RawBody;
  headers: Record<string, string>;
  /** Sign a webhook-style request (header parameters named x-hiram-*) so the body gets validated. */
  sign: boolean;
  csrf: boolean;
}

function requestFor(op: Operation): fc.Arbitrary<GeneratedRequest> {
  const params = fc.tuple(...op.pathParams.map(() => pathParamFor(ids)));
  const headerArb = fc.record(
    {
      'user-agent': headerValue,
      'x-forwarded-for': headerValue,
      'x-csrf-token': headerValue,
      ...Object.fromEntries(op.headers.map((h) => [h.name as string, headerValue])),
    },
    { requiredKeys: [] },
  );
  return fc
    .record({
      params,
      query: queryFor(op.query, ids),
      body:
        op.method === 'GET' || op.method === 'HEAD'
          ? fc.constant({ kind: 'no body' })
          : bodyFor(op.body, ids),
      headers: headerArb,
      sign: fc.boolean(),
      csrf: fc.boolean(),
    })
    .map(({ params, query, body, headers, sign, csrf }) => {
      let url = op.path;
      op.pathParams.forEach((name, i) => {
        url = url.replace(`{${name}}`, params[i] ?? '');
      });
      return { url: query ? `${url}?${query}` : url, body, headers, sign, csrf };
    });
}

async function send(agent: Agent, op: Operation, request: GeneratedRequest) {
  const headers: Record<string, string> = {};
  if (agent.cookies.size > 0) {
    headers.cookie = [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  Object.assign(headers, request.headers);
  if (request.csrf && agent.csrfToken) headers['x-csrf-token'] = agent.csrfToken;
  if (request.body.contentType) headers['content-type'] = request.body.contentType;
  if (request.sign && op.headers.some((h) => h.name === 'x-hiram-signature')) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    headers['x-hiram-timestamp'] = timestamp;
    headers['x-hiram-signature'] = signPaymentWebhook(WEBHOOK_SECRET, timestamp, request.body.payload ?? '');
  }
  const response: LightMyRequestResponse = await t.app.inject({
    method: op.method as 'GET',
    url: request.url,
    headers,
    remoteAddress: agent.ip,
    payloadAsStream: true,
    ...(request.body.payload !== undefined ? { payload: request.body.payload } : {}),
  });
  const stream = response.stream() as Readable;
  let text = '';
  if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    // A live stream never ends: its status and headers are the answer; close it as a browser would.
    stream.destroy();
    (response.raw.req as unknown as Readable | undefined)?.destroy();
  } else {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk));
    text = Buffer.concat(chunks).toString('utf8');
  }
  return { status: response.statusCode, text, contentType: String(response.headers['content-type'] ?? '') };
}

function describeRequest(op: Operation, request: GeneratedRequest): string {
  const payload = request.body.payload === undefined ? '' : String(request.body.payload);
  return `${op.method} ${request.url.slice(0, 300)} [${request.body.kind}] ${JSON.stringify(payload.slice(0, 300))}`;
}

for (const op of operations) {
  describe(`${op.method} ${op.path}`, () => {
    for (const caller of callerNames) {
      it(
        `as ${caller}: no 5xx, every 4xx in the error shape`,
        async () => {
          await ensureSignedIn(caller);
          await fc.assert(
            fc.asyncProperty(requestFor(op), async (request) => {
              const agent = agents[caller];
              const response = await send(agent, op, request);
              const where = `${describeRequest(op, request)} as ${caller} → ${response.status} ${response.text.slice(0, 300)}`;
              if (response.status >= 500) throw new Error(`5xx: ${where}`);
              if (response.status >= 400 && op.method !== 'HEAD') {
                if (!response.contentType.includes('json')) throw new Error(`not JSON: ${where}`);
                try {
                  expectErrorShape(JSON.parse(response.text));
                } catch (error) {
                  throw new Error(`error shape: ${where}\n${(error as Error).message}`);
                }
              }
            }),
            { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: RUNS > 100 },
          );
        },
        TIMEOUT,
      );
    }
  });
}
