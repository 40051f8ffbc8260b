import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { AppError } from '../domain/errors';
import { CredentialChecks } from './auth/attempt-limits';
import { registerAuth } from './auth/plugin';
import { SessionCache } from './auth/session-cache';
import type { SessionRow } from './auth/sessions';
import type { TrustProxy } from './config';
import type { OpenDatabase } from './db/open';
import type { AppDeps } from './deps';
import {
  ANSWER_CHANGES_CHANNEL,
  type EventBus,
  MemoryEventBus,
  PostgresEventBus,
  SESSION_CHANGES_CHANNEL,
} from './events/bus';
import { accountRoutes } from './features/account/routes';
import { applicationRoutes } from './features/applications/routes';
import { auditLogRoutes } from './features/audit-log/routes';
import { authRoutes } from './features/auth/routes';
import { collectionRoutes } from './features/collections/routes';
import { complaintRoutes } from './features/complaints/routes';
import { dashboardRoutes } from './features/dashboard/routes';
import { devOutboxRoutes } from './features/dev-outbox/routes';
import { disbursementRoutes } from './features/disbursements/routes';
import { fileRoutes } from './features/files/routes';
import { healthRoutes } from './features/health/routes';
import { loanDocumentRoutes } from './features/loan-documents/routes';
import { privacyRoutes } from './features/privacy/routes';
import { productRoutes } from './features/products/routes';
import { receiptRoutes } from './features/receipts/routes';
import { repaymentRoutes } from './features/repayments/routes';
import { securityRoutes } from './features/security/routes';
import { servicingRoutes } from './features/servicing/routes';
import { settingsRoutes } from './features/settings/routes';
import { staffApplicationRoutes } from './features/staff-applications/routes';
import { staffEventRoutes } from './features/staff-events/routes';
import { statementRoutes } from './features/statements/routes';
import { termsChangeRoutes } from './features/terms-changes/routes';
import { userRoutes } from './features/users/routes';
import { walletRoutes } from './features/wallet/routes';
import { registerScheduledJobs } from './jobs/runner';
import { AnswerCache } from './lib/answer-cache';
import { appPages } from './lib/app-page';
import { type Clock, systemClock } from './lib/clock';
import { errorHandler, frameworkErrorHandler } from './lib/errors';
import { InFlightGate } from './lib/in-flight-gate';
import { setDepthLimitedJsonParser } from './lib/json-body';
import { RequestLogController, requestIdGenerator } from './lib/logging';
import { pagePolicies } from './lib/page-policy';
import { BroadSearches } from './lib/paging';
import { securityHeaders } from './lib/security-headers';
import type { App } from './lib/types';
import { validatorCompiler } from './lib/validator';
import { type PoolStats, registerMetrics } from './metrics/plugin';
import { OutboxNotifier, WebhookNotifier } from './notify/notifier';
import { storageFor } from './storage/create-storage';

export interface BuildAppOptions
  extends Omit<
    AppDeps,
    | 'notifier'
    | 'storage'
    | 'events'
    | 'log'
    | 'clock'
    | 'perRecord'
    | 'sessionCache'
    | 'answerCache'
    | 'broadSearches'
    | 'credentialChecks'
  > {
  /** Tests only: a clock other than the real time. */
  clock?: Clock;
  /** Defaults to an in-process bus (one instance); PostgreSQL deployments pass a LISTEN/NOTIFY bus. */
  events?: AppDeps['events'];
  notifier?: AppDeps['notifier'];
  /** Defaults to what the configuration names (local disk under the data dir, or S3). */
  storage?: AppDeps['storage'];
  logger?: FastifyServerOptions['logger'];
  /** The built web app (index.html and assets); served with an SPA fallback when present. */
  webRoot?: string;
  /** The PostgreSQL pool's figures for /metrics (absent on PGlite). */
  poolStats?: () => PoolStats;
  /** PGlite's NOTIFY listener (OpenDatabase.listen): how one process hears of session changes. */
  listen?: OpenDatabase['listen'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the routes were built with (tests reach the database, storage and bus through it). */
    deps: AppDeps;
    /** Every API route (method and URL pattern), e.g. for the authorization matrix test. */
    apiRoutes: { method: string; url: string }[];
  }
}

/**
 * TRUST_PROXY for Fastify: the proxies' addresses and ranges as they are; a hop count as "the first n hops
 * from this server" (proxy-addr's meaning, which Fastify itself no longer gives a number): only safe when
 * the app cannot be reached except through those proxies, as the README says.
 */
function trustProxyOption(trust: TrustProxy) {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/**
 * Our compilers from the start: otherwise Fastify loads Ajv and fast-json-stringify for its defaults, which
 * no route uses, at every start (≈ 0.1 s of CPU, issue #35). Fastify types the factories as theirs; ours
 * are called the same way (with the route's definition) and return what setValidatorCompiler and
 * setSerializerCompiler take.
 */
const ownCompilers = {
  compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler },
} as unknown as FastifyServerOptions['schemaController'];

export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    frameworkErrors: frameworkErrorHandler,
    genReqId: requestIdGenerator(config.trustProxy),
    // While shutting down, a request that comes on an open connection is served (with Connection: close),
    // not answered 503: a load balancer passes a 503 on to the user; a refused new connection it retries.
    return503OnClosing: false,
    logController: new RequestLogController(),
    schemaController: ownCompilers,
  }).withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers carry personal and money data: no browser or proxy keeps them (issue #33), refusals
    // included. A route that means otherwise sets its own (the event stream's `no-cache, no-transform`).
    if (request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?'))
      reply.header('cache-control', 'no-store');
  });

  const apiRoutes: { method: string; url: string }[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    for (const method of methods) if (method !== 'HEAD') apiRoutes.push({ method, url: route.url });
  });

  setDepthLimitedJsonParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  const credentialChecks = new CredentialChecks();
  // Before every route, so its hooks see them all.
  registerMetrics(app, {
    access: config.metrics,
    credentialChecks,
    ...(options.poolStats ? { poolStats: options.poolStats } : {}),
  });

  const notifier =
    options.notifier ??
    (config.notifier === 'webhook' && config.smsWebhookUrl
      ? new WebhookNotifier(config.smsWebhookUrl, app.log)
      : new OutboxNotifier(app.log, config.devOutbox));
  const storage = options.storage ?? storageFor(config);
  let events = options.events;
  if (!events && config.databaseUrl && options.dbKind === 'postgres') {
    const bus = new PostgresEventBus(config.databaseUrl, app.log);
    await bus.start();
    events = bus;
  }
  events ??= new MemoryEventBus();
  const bus: EventBus = events;
  // On PostgreSQL nothing is kept while the listening connection is down: announcements would be missed.
  const hearing = bus instanceof PostgresEventBus ? { hearingChanges: () => bus.listenerPid !== null } : {};
  const sessionCache = new SessionCache<SessionRow>(config.sessionCacheMs, hearing);
  const clock = options.clock ?? systemClock;
  // A write request's marker goes out through the database and comes back on the channel heard below
  // (docs/decisions/043); when nothing hears the database, a write request empties every answer instead.
  const hearsDatabase = bus instanceof PostgresEventBus || options.listen !== undefined;
  // Aged by the app's clock: some answers depend on it (days overdue), so a clock moved on is a new moment.
  const answerCache = new AnswerCache(config.staffAnswerCacheMs, {
    ...hearing,
    now: () => clock.now().getTime(),
    ...(hearsDatabase
      ? {
          announce: (payload: string) =>
            sql`select pg_notify(${ANSWER_CHANGES_CHANNEL}, ${payload})`.execute(options.db),
        }
      : {}),
  });
  // A change to a user, a session or a second factor, announced by the database's triggers (migration 018),
  // drops what this instance read about that user's sessions; null (announcements missed) drops everything.
  const forgetSessions = (userId: string | null) =>
    userId ? sessionCache.forgetUser(userId) : sessionCache.clear();
  const stopHearingBus = bus.subscribeSessionChanges(forgetSessions);
  const stopHearingDb = await options.listen?.(SESSION_CHANGES_CHANNEL, forgetSessions);
  // A change to a table a back-office answer reads (migrations 020, 034) forgets the answers reading it.
  const forgetAnswers = (payload: string | null) => answerCache.heard(payload);
  const stopHearingAnswers = bus.subscribeAnswerChanges(forgetAnswers);
  const stopHearingDbAnswers = await options.listen?.(ANSWER_CHANGES_CHANNEL, forgetAnswers);
  app.addHook('onClose', async () => {
    stopHearingBus();
    stopHearingAnswers();
    // Nothing to stop hearing when the database has already been closed.
    await stopHearingDb?.().catch(() => {});
    await stopHearingDbAnswers?.().catch(() => {});
  });
  const deps: AppDeps = {
    config,
    db: options.db,
    dbKind: options.dbKind,
    notifier,
    storage,
    events,
    log: app.log,
    clock,
    perRecord: new InFlightGate(),
    sessionCache,
    answerCache,
    broadSearches: new BroadSearches(),
    credentialChecks,
  };
  app.decorate('deps', deps);
  app.addHook('onClose', () => bus.close());
  app.addHook('onClose', () => storage.close());
  // Scheduled jobs (JOBS_ENABLED): started when the app is ready, awaited and stopped when it closes.
  if (config.jobs.enabled) registerScheduledJobs(app, deps);

  await app.register(fastifyCookie);
  // Text answers above 1 KiB go out compressed (brotli at a quick level, or gzip); images, PDFs and
  // anything already encoded are left alone. Registered before the static files and the API routes so its
  // hook covers them; the hijacked event stream never passes through it. Request bodies are not inflated
  // (the payments webhook signs the raw body).
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    globalDecompression: false,
  });
  // Limits are set per route (readMultipart); these are the outer bounds for any multipart request.
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: 10 * 1024 * 1024,
      files: 4,
      fields: 40,
      fieldSize: 4096,
      parts: 44,
      headerPairs: 100,
    },
  });
  const cspDirectives = {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Mantine sets inline style attributes and a <style> element for its CSS variables.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: config.secureCookies ? [] : null,
  };
  const headersWithScripts = (scriptSrc: readonly string[]) =>
    securityHeaders({
      contentSecurityPolicy: { directives: { ...cspDirectives, scriptSrc: [...scriptSrc] } },
      strictTransportSecurity: config.secureCookies,
      crossOriginEmbedderPolicy: false,
    });
  /** The Content-Security-Policy among `headers`; an empty one would mean no policy at all: refuse. */
  const policyOf = (headers: ReadonlyArray<readonly [string, string]>) => {
    const policy = headers.find(([name]) => name === 'content-security-policy')?.[1];
    if (!policy) throw new Error('The security headers have no Content-Security-Policy');
    return policy;
  };
  const headers = headersWithScripts(cspDirectives.scriptSrc);
  policyOf(headers); // checked at start, so a missing policy never reaches a response
  // A page of the built app may also run its own inline scripts, each allowed by its hash only.
  const policyWith = (hashes: readonly string[]) =>
    policyOf(headersWithScripts([...cspDirectives.scriptSrc, ...hashes]));
  const pagePolicy = pagePolicies(policyWith);
  // Computed once (lib/security-headers.ts); set on the raw response so hijacked streams carry them too.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  // In production only when API_DOCS says so (issue #15). Without it nothing reads the OpenAPI document,
  // so it is not built and its packages (with a YAML writer) are not loaded at start (issue #35).
  if (config.apiDocs) {
    const [{ default: fastifySwagger }, { default: fastifySwaggerUi }] = await Promise.all([
      import('@fastify/swagger'),
      import('@fastify/swagger-ui'),
    ]);
    await app.register(fastifySwagger, {
      openapi: {
        info: { title: 'Hiram API', version: '0.1.0', description: 'Borrower app and back-office API' },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  }

  registerAuth(app, deps);

  await app.register(
    async (api) => {
      const scoped = api.withTypeProvider<ZodTypeProvider>();
      healthRoutes(scoped, deps);
      settingsRoutes(scoped, deps);
      authRoutes(scoped, deps);
      securityRoutes(scoped, deps);
      fileRoutes(scoped, deps);
      applicationRoutes(scoped, deps);
      productRoutes(scoped, deps);
      staffApplicationRoutes(scoped, deps);
      dashboardRoutes(scoped, deps);
      staffEventRoutes(scoped, deps);
      walletRoutes(scoped, deps);
      termsChangeRoutes(scoped, deps);
      disbursementRoutes(scoped, deps);
      repaymentRoutes(scoped, deps);
      statementRoutes(scoped, deps);
      receiptRoutes(scoped, deps);
      loanDocumentRoutes(scoped, deps);
      collectionRoutes(scoped, deps);
      complaintRoutes(scoped, deps);
      accountRoutes(scoped, deps);
      privacyRoutes(scoped, deps);
      servicingRoutes(scoped, deps);
      userRoutes(scoped, deps);
      auditLogRoutes(scoped, deps);
      if (config.devOutbox) devOutboxRoutes(scoped, deps);
    },
    { prefix: '/api' },
  );

  // The built web app is served from disk as it is now, not as it was at start: a rebuild (new hashed
  // assets, a new index.html) is served without a restart. Files are looked up per request (wildcard
  // route), so nothing is listed at start and the folder may even appear later.
  const webRoot = options.webRoot;
  const assetsDir = webRoot === undefined ? '' : `${join(webRoot, 'assets')}${sep}`;
  const hasWeb = () => webRoot !== undefined && existsSync(join(webRoot, 'index.html'));
  if (webRoot !== undefined) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: true,
      // `/` is the app page; other folders have no index.html, so they fall through to the SPA fallback.
      index: 'index.html',
      // The build writes .br and .gz next to each text file (vite.config.ts); they are sent as they are.
      preCompressed: true,
      cacheControl: false,
      // Hashed assets can be cached forever; everything else is revalidated, so a deploy shows at once.
      setHeaders: (res, filePath, stat) => {
        res.header(
          'cache-control',
          filePath.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        if (/\.html(\.br|\.gz)?$/.test(filePath))
          res.header('content-security-policy', pagePolicy(filePath, stat));
      },
    });
  }

  // The app page in the browser's language (its description and no-script line, issue #36), at `/`,
  // `/index.html` and every path of the app.
  const appPage = webRoot === undefined ? () => null : appPages(webRoot);
  const sendAppPage = (request: FastifyRequest, reply: FastifyReply) => {
    const page = appPage(request.headers['accept-language']);
    if (!page) return reply.status(404).send(new AppError('NOT_FOUND').toBody());
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Language')
      .header('content-language', page.language)
      .header('content-security-policy', pagePolicy(page.filePath, page.stat))
      .type('text/html; charset=utf-8')
      .send(page.html);
  };
  if (webRoot !== undefined) {
    app.get('/', { schema: { hide: true } }, sendAppPage);
    app.get('/index.html', { schema: { hide: true } }, sendAppPage);
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/api' || path.startsWith('/api/') || request.method !== 'GET' || !hasWeb()) {
      return reply.status(404).send(new AppError('NOT_FOUND').toBody());
    }
    const looksLikeFile = /\.[a-z0-9]{2,5}$/i.test(path);
    if (looksLikeFile) return reply.status(404).send(new AppError('NOT_FOUND').toBody());
    return sendAppPage(request, reply);
  });

  return app as unknown as App;
}
