import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { codePurposes } from '../../domain/codes';
import { defaultReminderRules } from '../../domain/loan/reminders';
import { defaultRepaymentRules } from '../../domain/loan/repayments';
import { defaultLoanProduct } from '../../domain/loan/terms';
import type { Role, StaffRole, UserStatus } from '../../domain/roles';
import { defaultPaymentChannels } from '../../domain/schemas/settings';
import { type BuildAppOptions, buildApp } from '../app';
import { hashPassword } from '../auth/passwords';
import { type Config, DEFAULT_REGULATOR_CONTACT, defaultPrivacyConfig } from '../config';
import { type DbKind, migrateToLatest, type OpenDatabase, openDatabase } from '../db/open';
import type { Database, User } from '../db/schema';
import type { AppDeps } from '../deps';
import { PostgresEventBus } from '../events/bus';
import type { Clock } from '../lib/clock';
import { type Batch, InFlightGate, newBatch } from '../lib/in-flight-gate';
import type { App } from '../lib/types';
import { type Notifier, OutboxNotifier } from '../notify/notifier';
import { ensureDefaultProduct } from '../products/ensure-default-product';
import { storageFor } from '../storage/create-storage';

/**
 * Runs `work` with the app's per-record gate (docs/decisions/024) turned off, as if every request reached
 * an instance of its own: a race test then shows that the database alone lets exactly one request win.
 */
export async function asIfEachOnItsOwnInstance<T>(
  t: Pick<TestApp, 'deps'>,
  work: () => Promise<T>,
): Promise<T> {
  const gate = t.deps.perRecord;
  t.deps.perRecord = new (class extends InFlightGate {
    override run<R>(_key: string, task: (batch: Batch) => Promise<R>) {
      return task(newBatch());
    }
  })();
  try {
    return await work();
  } finally {
    t.deps.perRecord = gate;
  }
}

/** 48 characters, fixed, so code and session hashes are reproducible in tests. */
export const TEST_SESSION_SECRET = 'hiram-test-session-secret-0123456789-abcdefghijk';

/** A test clock: the real time moved by `days` (settable while the test runs). */
export function shiftedClock(): Clock & { days: number } {
  return {
    days: 0,
    now() {
      return new Date(Date.now() + this.days * 86_400_000);
    },
  };
}

/** The backend the API suite runs on: the project sets TEST_DB (pglite or postgres). */
export function testDbKind(): DbKind {
  const kind = process.env.TEST_DB ?? 'pglite';
  if (kind !== 'pglite' && kind !== 'postgres')
    throw new Error(`TEST_DB must be pglite or postgres, not ${kind}`);
  return kind;
}

/**
 * What a sign-up sends to agree to the privacy notice in force (issue #14): every helper and test that signs
 * up through the route spreads this into its body.
 */
export function testConsent(deps: Pick<AppDeps, 'config'>): { privacyNoticeVersion: string } {
  return { privacyNoticeVersion: deps.config.privacy.noticeVersion };
}

/** A complete test Config: development outbox on, plain-HTTP cookies, fixed secret. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    host: '127.0.0.1',
    port: 0,
    dataDir: join(tmpdir(), 'hiram-test-unused'),
    databaseUrl: undefined,
    databasePoolSize: 5,
    databasePreparedStatements: true,
    // As shipped: suites run with the session cache on.
    sessionCacheMs: 2_000,
    staffAnswerCacheMs: 2_000,
    sessionSecret: TEST_SESSION_SECRET,
    publicUrl: undefined,
    secureCookies: false,
    notifier: 'outbox',
    smsWebhookUrl: undefined,
    devOutbox: true,
    apiDocs: true,
    timeZone: 'Asia/Manila',
    supportEmail: 'support@example.com',
    applicationReviewHours: 24,
    regulatorContact: DEFAULT_REGULATOR_CONTACT,
    trustProxy: false,
    logLevel: 'silent',
    codeResendSeconds: 60,
    // Generous: suites sign many borrowers up; the ceilings' own tests set low values.
    codeLimits: { perIpPerHour: 1_000, globalPerHour: 100_000 },
    loginLockout: { afterFailures: 5, firstMinutes: 1, maxMinutes: 60, failuresPerIp: 30 },
    // Generous too; the limits' own tests set low values.
    rateLimits: {
      login: { perIpPerHour: 100_000 },
      uploads: { perIpPerHour: 100_000, perAccountPerHour: 100_000 },
      withdrawals: { perIpPerHour: 100_000, perAccountPerHour: 100_000 },
    },
    testClockStart: null,
    loanProduct: defaultLoanProduct,
    fourEyesThresholdMinor: 10_000_000,
    repaymentRules: defaultRepaymentRules,
    paymentChannels: [...defaultPaymentChannels],
    paymentsWebhook: null,
    // Tests run jobs themselves, with the app's clock; no timer runs in a test app.
    jobs: { enabled: false, intervalSeconds: 300 },
    reminderRules: defaultReminderRules,
    storage: { kind: 'local' },
    shutdownTimeoutMs: 10_000,
    metrics: { allow: [], token: undefined },
    privacy: defaultPrivacyConfig('support@example.com'),
    // Suites that do not test the second factor sign staff in with a password alone; the staff sign-in
    // tests set the secure default (admin and finance must enrol) themselves.
    staffSignIn: {
      secondFactorRequiredRoles: [],
      idleMinutes: 30,
      absoluteHours: 12,
      webauthnRpId: undefined,
      webauthnOrigin: undefined,
    },
    ...overrides,
  };
}

const noop = () => {};
export const silentLogger: FastifyBaseLogger = {
  level: 'silent',
  info: noop,
  error: noop,
  debug: noop,
  fatal: noop,
  warn: noop,
  trace: noop,
  silent: noop,
  child: () => silentLogger,
};

// ---------------------------------------------------------------------------------------------------------
// Agents: one browser each (cookie jar + CSRF token + its own client address).

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies freely; the assertions check their shape
export type AnyBody = any;

export interface ApiResponse<T = AnyBody> {
  status: number;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: T;
  text: string;
  /** The body's bytes (e.g. a PDF). */
  rawPayload: Buffer;
  headers: LightMyRequestResponse['headers'];
  cookies: LightMyRequestResponse['cookies'];
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** false: leave out the X-CSRF-Token header even though the agent has a token. */
  csrf?: boolean;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (give a content-type header yourself); wins over `body`. */
  raw?: string | Buffer;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class Agent {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  constructor(
    private readonly app: App,
    readonly ip: string,
  ) {}

  async request<T = AnyBody>(
    method: string,
    url: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const upper = method.toUpperCase();
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    if (this.csrfToken && options.csrf !== false && !SAFE_METHODS.has(upper)) {
      headers['x-csrf-token'] = this.csrfToken;
    }
    let payload: string | Buffer | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);

    const response = await this.app.inject({
      method: upper as 'GET',
      url,
      headers,
      remoteAddress: this.ip,
      ...(payload !== undefined ? { payload } : {}),
    });

    for (const cookie of response.cookies) {
      const expired =
        cookie.value === '' ||
        cookie.maxAge === 0 ||
        (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    const text = response.body;
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    const body = isJson && text ? JSON.parse(text) : text;
    // Like the web app: every answer that carries the session's CSRF token updates it.
    if (body && typeof body === 'object' && 'csrfToken' in body) this.csrfToken = body.csrfToken ?? null;
    return {
      status: response.statusCode,
      body,
      text,
      rawPayload: response.rawPayload,
      headers: response.headers,
      cookies: response.cookies,
    };
  }

  get<T = AnyBody>(url: string, options?: RequestOptions) {
    return this.request<T>('GET', url, options);
  }

  post<T = AnyBody>(url: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', url, { ...options, body });
  }

  /** A copy of this browser's state, e.g. to replay an old session cookie later. */
  clone(): Agent {
    const copy = new Agent(this.app, this.ip);
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    copy.csrfToken = this.csrfToken;
    return copy;
  }
}

// ---------------------------------------------------------------------------------------------------------

export interface CreateUserInput {
  role?: Role;
  username?: string | null;
  phone?: string | null;
  password?: string;
  mustChangePassword?: boolean;
  status?: UserStatus;
}

export interface TestApp {
  app: App;
  db: Kysely<Database>;
  deps: AppDeps;
  kind: DbKind;
  /** PostgreSQL: the URL of this app's own database; undefined on PGlite. */
  databaseUrl: string | undefined;
  /** A signed-out browser. */
  api: Agent;
  /** A new browser with an empty cookie jar and its own client address. */
  agent(): Agent;
  /** A signed-out browser on the server's own machine (127.0.0.1): only it may read the dev outbox. */
  local(): Agent;
  /** A phone number not used before in this app (11 digits). */
  nextPhone(): string;
  nextUsername(prefix?: string): string;
  /** The latest code the development outbox "sent" to `phone`. */
  latestCode(phone: string): Promise<string>;
  /** Signs a borrower up through the real routes (send code, read it from the outbox, sign up). */
  signUpBorrower(phone?: string, password?: string): Promise<{ user: User; phone: string; password: string }>;
  /** Inserts a user directly (argon2id hash), e.g. staff, or a user who must change the password. */
  createUser(input?: CreateUserInput): Promise<{ user: User; password: string }>;
  /** Logs in through the real route and returns the signed-in browser. */
  loginAs(identifier: string, password: string, agent?: Agent): Promise<Agent>;
  /** A new staff member of `role` (createUser), signed in (loginAs): their browser. */
  signInStaff(role: StaffRole): Promise<Agent>;
  /**
   * After a test changed behind the app's back what a session lookup reads and no listener hears it: a
   * session's last-seen time (the one change the triggers do not announce; the app only moves it forwards),
   * or any change on PostgreSQL without `postgresEvents` (no listening connection).
   */
  forgetCachedSessions(): void;
  /**
   * The same for back-office answers (docs/decisions/030): after rows changed on PostgreSQL without
   * `postgresEvents`, where no listening connection hears migration 020's announcements.
   */
  forgetCachedAnswers(): void;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  notifier?: Notifier;
  storage?: AppDeps['storage'];
  /** The live-update bus (e.g. one that fails); defaults to the in-process bus. */
  events?: AppDeps['events'];
  /**
   * PostgreSQL only: the app's own LISTEN/NOTIFY bus on the test database, as in a deployment with
   * DATABASE_URL (`TestApp.databaseUrl` lets a test start a second "instance" on the same database).
   */
  postgresEvents?: boolean;
  /** The built web app to serve (as `npm start` serves dist/web). */
  webRoot?: string;
  /** A clock other than the real time (e.g. `shiftedClock`), to see instalments fall due and overdue. */
  clock?: Clock;
  /** Registers extra routes (e.g. a guarded or throwing test route) before the app is ready. */
  routes?: (app: App, deps: AppDeps) => void;
  /** The app's logger (e.g. `loggerOptions` writing to a test's stream); none by default. */
  logger?: BuildAppOptions['logger'];
}

/** A fresh app on a fresh, migrated database of the backend under test (TEST_DB). */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const kind = testDbKind();
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-test-'));
  let database: OpenDatabase | undefined;
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  let app: App | undefined;

  const cleanup = async () => {
    const errors: unknown[] = [];
    for (const step of [
      async () => app?.close(),
      async () => database?.close(),
      dropDatabase,
      async () => rmSync(dataDir, { recursive: true, force: true }),
    ]) {
      try {
        await step();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'closing the test app failed');
  };

  try {
    if (kind === 'pglite') {
      // Starting from the migrated template of the global setup skips PGlite's initdb (~1.5 s per app).
      const template = inject('pgliteTemplate');
      database = await openDatabase({
        kind: 'pglite',
        dataDir: null,
        // A test's few rows need no 128 MB of buffers; touching them was a third of each app's start.
        sharedBuffers: '16MB',
        ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}),
      });
    } else {
      // A copy of the global setup's migrated template (~0.05 s instead of 0.6–1.3 s of migrations).
      const created = await createPostgresDatabase({ migrated: true });
      dropDatabase = created.drop;
      databaseUrl = created.url;
      database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 5 });
    }
    await migrateToLatest(database.db);

    if (options.postgresEvents && !databaseUrl) throw new Error('postgresEvents needs TEST_DB=postgres');
    const config = testConfig({
      dataDir,
      ...(options.postgresEvents ? { databaseUrl } : {}),
      ...options.config,
    });
    const notifier = options.notifier ?? new OutboxNotifier(silentLogger, config.devOutbox);
    const storage = options.storage ?? storageFor(config);
    app = await buildApp({
      config,
      db: database.db,
      dbKind: database.kind,
      notifier,
      storage,
      ...(options.events ? { events: options.events } : {}),
      ...(options.webRoot ? { webRoot: options.webRoot } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(database.poolStats ? { poolStats: database.poolStats } : {}),
      ...(database.listen ? { listen: database.listen } : {}),
    });
    const deps: AppDeps = app.deps;
    // As main.ts does at start: the settings become version 1 of the default product.
    await ensureDefaultProduct(deps);
    options.routes?.(app, deps);
    await app.ready();
    return helpers(app, deps, cleanup, databaseUrl);
  } catch (error) {
    await cleanup().catch(() => {});
    throw error;
  }
}

function helpers(
  app: App,
  deps: AppDeps,
  cleanup: () => Promise<void>,
  databaseUrl: string | undefined,
): TestApp {
  let agents = 0;
  let phones = 0;
  let usernames = 0;
  let closed = false;

  const agent = () => {
    agents += 1;
    return new Agent(app, `10.${(agents >> 16) & 255}.${(agents >> 8) & 255}.${agents & 255}`);
  };
  const local = () => new Agent(app, '127.0.0.1');
  const nextPhone = () => {
    phones += 1;
    return `0917${String(phones).padStart(7, '0')}`;
  };
  const nextUsername = (prefix = 'user') => {
    usernames += 1;
    return `${prefix}${usernames}`;
  };

  const latestCode = async (phone: string) => {
    const response = await local().get<{ messages: { text: string; purpose: string }[] }>(
      `/api/dev/outbox?phone=${phone}`,
    );
    // A code message only: a message of a change carries a loan number, whose six digits are no code.
    const newest = response.body.messages?.find((m) =>
      (codePurposes as readonly string[]).includes(m.purpose),
    );
    const text = newest?.text ?? '';
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    if (!code) throw new Error(`no code in the outbox for ${phone}: ${response.text}`);
    return code;
  };

  const loginAs = async (identifier: string, password: string, browser = agent()) => {
    const response = await browser.post('/api/auth/login', { identifier, password });
    if (response.status !== 200)
      throw new Error(`login as ${identifier} failed: ${response.status} ${response.text}`);
    return browser;
  };

  const signUpBorrower = async (phone = nextPhone(), password = 'borrower-password-1') => {
    const browser = agent();
    const sent = await browser.post('/api/auth/signup/code', { phone });
    if (sent.status !== 200) throw new Error(`send code failed: ${sent.status} ${sent.text}`);
    const code = await latestCode(phone);
    const signed = await browser.post('/api/auth/signup', {
      phone,
      password,
      confirmPassword: password,
      code,
      ...testConsent(deps),
    });
    if (signed.status !== 201) throw new Error(`sign-up failed: ${signed.status} ${signed.text}`);
    const user = await deps.db
      .selectFrom('users')
      .selectAll()
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    return { user, phone, password };
  };

  const createUser = async (input: CreateUserInput = {}) => {
    const role = input.role ?? 'borrower';
    const password = input.password ?? `pw-${randomBytes(6).toString('hex')}`;
    const user = await deps.db
      .insertInto('users')
      .values({
        role,
        username:
          input.username === undefined ? (role === 'borrower' ? null : nextUsername(role)) : input.username,
        phone: input.phone === undefined ? nextPhone() : input.phone,
        password_hash: await hashPassword(password),
        must_change_password: input.mustChangePassword ?? false,
        status: input.status ?? 'active',
        // A borrower made here has agreed to the notice in force, as one who signed up would have.
        privacy_notice_version: role === 'borrower' ? deps.config.privacy.noticeVersion : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { user, password };
  };

  const signInStaff = async (role: StaffRole) => {
    const { user, password } = await createUser({ role });
    return loginAs(user.username!, password);
  };

  return {
    app,
    db: deps.db,
    deps,
    kind: deps.dbKind,
    databaseUrl,
    api: agent(),
    agent,
    local,
    nextPhone,
    nextUsername,
    latestCode,
    signUpBorrower,
    createUser,
    loginAs,
    signInStaff,
    forgetCachedSessions: () => deps.sessionCache.clear(),
    forgetCachedAnswers: () => deps.answerCache.clear(),
    close: async () => {
      if (closed) return;
      closed = true;
      await cleanup();
    },
  };
}

/**
 * Another instance of the app on `t`'s PostgreSQL database (`t` made with `postgresEvents`), as a second
 * server behind the load balancer: its own pool, its own listening connection, its own caches. `close` stops
 * it and its pool.
 */
export async function secondInstance(
  t: Pick<TestApp, 'databaseUrl'>,
  config: Partial<Config> = {},
): Promise<{ app: App; close: () => Promise<void> }> {
  const url = t.databaseUrl;
  if (!url) throw new Error('A second instance needs a test app on PostgreSQL');
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 3 });
  const events = new PostgresEventBus(url, silentLogger);
  await events.start();
  const app = await buildApp({
    config: testConfig({ ...config, databaseUrl: url }),
    db: database.db,
    dbKind: 'postgres',
    events,
    logger: false,
  });
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * A new database on the shared throw-away cluster, empty or (`migrated`) a copy of the migrated template;
 * `drop` removes it even with connections left.
 */
export async function createPostgresDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) {
    throw new Error(
      'TEST_DB=postgres needs the cluster of src/server/test-support/postgres-global-setup.ts; run the ' +
        '"api-postgres" vitest project (npx vitest run --project api-postgres).',
    );
  }
  const name = `hiram_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated ? inject('postgresTemplate') : undefined;
  await withAdmin(adminUrl, (client) =>
    client.query(`create database ${name}${template ? ` template ${template}` : ''}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // pg's pool.end() resolves before its connections have finished closing. A forced drop would kill
    // those backends and their clients would throw "terminating connection" as an uncaught error; a plain
    // drop waits (up to 5 s) for them to go. Force only if something really was left open.
    drop: () =>
      withAdmin(adminUrl, async (client) => {
        try {
          await client.query(`drop database if exists ${name}`);
        } catch {
          await client.query(`drop database if exists ${name} with (force)`);
        }
      }),
  };
}

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
