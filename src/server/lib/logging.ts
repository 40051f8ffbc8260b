import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import type { TrustProxy } from '../config';

/**
 * Structured logs (docs/decisions/021): one JSON object a line (pino, Fastify's logger) on stdout, each
 * request's lines carrying its `requestId`. Fastify logs only method, URL, host and addresses of a
 * request and the status of its answer, never headers or bodies; the redaction below is the net for code
 * that logs more (a request's headers, a body, a user object), so a cookie, CSRF token, password or
 * verification code never reaches the log. The development outbox prints SMS texts on purpose (README);
 * with DEV_OUTBOX off (always in production) it prints none.
 */
const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["x-csrf-token"]',
  'headers["set-cookie"]',
  // A request body (passwords, codes) is never logged whole, wherever it is attached.
  'body',
  'req.body',
  '*.body',
  'password',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.passwordHash',
  '*.password_hash',
  '*.csrfToken',
  '*.sessionSecret',
];

export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(stream ? { stream } : {}),
  };
}

/** What a request id from a proxy may look like: a UUID, a trace id, a short token. Anything else is replaced. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request ids: the `X-Request-Id` a trusted proxy (TRUST_PROXY) sets, so one id follows a request through
 * the proxy's and the app's logs; otherwise, or when it is missing or odd, a new UUID. Fastify logs it as
 * `requestId`; the answer carries it in `X-Request-Id`.
 */
export function requestIdGenerator(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  // Any configured proxy counts: an id only labels log lines, and an odd one is replaced anyway.
  const fromProxy = trustProxy !== false;
  return (request) => {
    const given = fromProxy ? request.headers['x-request-id'] : undefined;
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  };
}

/**
 * What load balancers, the container's HEALTHCHECK and Prometheus ask every few seconds, on every instance:
 * two info lines each (incoming, completed) would bury the requests people make.
 */
const PROBES = new Set(['/api/health', '/api/health/ready', '/metrics']);
const isProbe = (request: FastifyRequest) => PROBES.has(request.url.split('?')[0] ?? '');

/**
 * Fastify's request lines, less the probes that went well: a probe writes nothing unless it fails (an error,
 * or a 4xx/5xx such as readiness's 503 or a refused scrape), and then one warning line carrying the request
 * as well, since its "incoming request" line was not written. Everything else is logged as Fastify does.
 */
export class RequestLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>) {
    if (!isProbe(request)) super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ) {
    if (!isProbe(request)) return super.requestCompleted(error, request, reply, metadata);
    if (!error && reply.statusCode < 400) return;
    reply.log.warn(
      { req: request, res: reply, responseTime: reply.elapsedTime, ...(error ? { err: error } : {}) },
      'probe failed',
    );
  }
}
