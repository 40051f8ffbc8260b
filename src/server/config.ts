import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { codePolicy } from '../domain/codes';
import { defaultReminderRules, type ReminderRules } from '../domain/loan/reminders';
import {
  assertWithinCostCaps,
  defaultRepaymentRules,
  MAX_GRACE_DAYS,
  type RepaymentRules,
} from '../domain/loan/repayments';
import { assertLoanProduct, defaultLoanProduct, type LoanProduct } from '../domain/loan/terms';
import { toMinor } from '../domain/money';
import { type PaymentChannelConfig, paymentChannelConfigSchema } from '../domain/schemas/payment-channels';
import { type NoticeTexts, noticeVersionPattern } from '../domain/schemas/privacy';
import { DEFAULT_TIME_ZONE, defaultPaymentChannels, isExampleChannel } from '../domain/schemas/settings';
import { type MetricsAccess, parseNetwork } from './metrics/access';
import { defaultNoticeTexts, readNoticeFile } from './privacy/notice';

const staffRoleNames = ['officer', 'finance', 'admin'] as const;
type StaffRoleName = (typeof staffRoleNames)[number];

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of true, false, 1, 0, yes, no, on, off',
  })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

/**
 * TRUST_PROXY (issue #15): which peers may tell the client's address in X-Forwarded-For. Never "believe
 * anyone": either the proxies' addresses or CIDR ranges (comma-separated; also proxy-addr's names
 * loopback, linklocal, uniquelocal), or the number of proxy hops in front of the app. Unset, false or 0:
 * no proxy; the peer's address is the client's.
 */
const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);
function isAddressOrRange(entry: string): boolean {
  if (proxyNames.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}
const trustProxy = z.string().transform((text, ctx): TrustProxy => {
  const value = text.trim().toLowerCase();
  if (['false', 'no', 'off', '0'].includes(value)) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 10) return hops;
    ctx.addIssue({ code: 'custom', message: 'a hop count must be between 0 and 10' });
    return z.NEVER;
  }
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isAddressOrRange(e));
  if (bad.length === 0) return entries;
  ctx.addIssue({
    code: 'custom',
    message:
      `must be the proxies' addresses or CIDR ranges, comma-separated (e.g. 10.0.0.5,10.1.0.0/16), or the ` +
      `number of proxy hops (e.g. 1); not ${bad.map((e) => JSON.stringify(e)).join(', ')}` +
      (['true', 'yes', 'on'].includes(value)
        ? ' (trusting every sender of X-Forwarded-For is not allowed)'
        : ''),
  });
  return z.NEVER;
});

/** false: no proxy; a number: that many proxy hops; a list: the proxies' addresses or ranges. */
export type TrustProxy = false | number | string[];

const isValidTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const paymentChannels = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of channels' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(paymentChannelConfigSchema, {
        error: 'must be a JSON array of { code, name, accountDetails, accountNumber, instructions, qrPh }',
      })
      .min(1, { error: 'must list at least one channel' })
      .refine((list) => new Set(list.map((c) => c.code)).size === list.length, {
        error: 'channel codes must be unique',
      }),
  );

/** The version of the notice shipped with Hiram (the date it was written). */
export const DEFAULT_PRIVACY_NOTICE_VERSION = '2026-11-23';
/**
 * Lending companies in the Philippines answer to the SEC; its Financing and Lending Companies Department takes
 * complaints the lender did not resolve. A lender sets its own text (REGULATOR_CONTACT) with current details.
 */
export const DEFAULT_REGULATOR_CONTACT =
  'Securities and Exchange Commission (SEC) Philippines, Financing and Lending Companies Department, SEC Headquarters, 7907 Makati Avenue, Makati City; www.sec.gov.ph';

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** Off only behind a pooler that cannot keep named statements (PgBouncer before 1.21 in transaction mode). */
    DATABASE_PREPARED_STATEMENTS: booleanFlag.default(true),
    /** How long a session lookup may answer later requests (docs/decisions/027); 0 reads it every time. */
    SESSION_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(2_000),
    /** How long a back-office list page or dashboard answer may answer the same request (decision 030); 0 reads every time. */
    STAFF_ANSWER_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(2_000),
    SESSION_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    NOTIFIER: z.enum(['outbox', 'webhook']).default('outbox'),
    SMS_WEBHOOK_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    DEV_OUTBOX: booleanFlag.optional(),
    /** The interactive API documentation at /api/docs: on outside production, off in production unless set. */
    API_DOCS: booleanFlag.optional(),
    TIME_ZONE: z
      .string()
      .refine(isValidTimeZone, { error: 'must be an IANA time zone' })
      .default(DEFAULT_TIME_ZONE),
    SUPPORT_EMAIL: z.email().default('support@example.com'),
    /** How long the lender says a decision takes, in hours: shown to a borrower waiting for one (issue #32). */
    APPLICATION_REVIEW_HOURS: z.coerce
      .number({ error: 'must be a whole number of hours' })
      .int({ error: 'must be a whole number of hours' })
      .min(1, { error: 'must be between 1 and 720 hours' })
      .max(720, { error: 'must be between 1 and 720 hours' })
      .default(24),
    TRUST_PROXY: trustProxy.optional(),
    /** Who a borrower may turn to when a complaint is not resolved (RA 11765); shown on the borrower's home. */
    REGULATOR_CONTACT: z
      .string()
      .trim()
      .min(10, { error: 'must name the regulator and how to reach it (at least 10 characters)' })
      .max(500, { error: 'must be at most 500 characters' })
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
      .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), { error: 'must be one line of plain text' })
      .default(DEFAULT_REGULATOR_CONTACT),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOAN_MONTHLY_RATE_BP: z.coerce.number().int().min(0).max(10_000).default(200),
    LOAN_FEE_FLAT: z.coerce.number().int().min(0).max(1_000_000).default(0),
    LOAN_FEE_PERCENT_BP: z.coerce.number().int().min(0).max(9_999).default(0),
    /** Pesos: approving more than this needs a second staff member (four-eyes, docs/decisions/018). */
    FOUR_EYES_THRESHOLD: z.coerce.number().int().min(0).max(1_000_000_000).default(100_000),
    REPAYMENT_GRACE_DAYS: z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_GRACE_DAYS)
      .default(defaultRepaymentRules.graceDays),
    LATE_CHARGE_MONTHLY_BP: z.coerce.number().int().min(0).max(10_000).default(0),
    PAYMENT_CHANNELS: paymentChannels.optional(),
    /** Shared with the payment provider; signs POST /api/payments/webhook. Unset: the webhook is off. */
    PAYMENTS_WEBHOOK_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    /** The payment channel code the provider's payments are recorded on. */
    PAYMENTS_WEBHOOK_CHANNEL: z.string().min(1).optional(),
    /** Scheduled jobs (payment reminders) on this instance; several instances share the work safely. */
    JOBS_ENABLED: booleanFlag.default(true),
    JOBS_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
    REMINDER_DAYS_BEFORE: z.coerce.number().int().min(0).max(14).default(defaultReminderRules.daysBefore),
    REMINDER_OVERDUE_EVERY_DAYS: z.coerce
      .number()
      .int()
      .min(1)
      .max(31)
      .default(defaultReminderRules.overdueEveryDays),
    REMINDER_OVERDUE_MAX: z.coerce
      .number()
      .int()
      .min(0)
      .max(12)
      .default(defaultReminderRules.overdueMaxPerInstalment),
    /** Where files live: local disk (DATA_DIR/files) or an S3-compatible bucket (docs/decisions/014). */
    STORAGE: z.enum(['local', 's3']).default('local'),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).optional(),
    /** The SDK's own region variable, used when S3_REGION is not set. */
    AWS_REGION: z.string().min(1).optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    S3_FORCE_PATH_STYLE: booleanFlag.default(false),
    /** How long a SIGTERM/SIGINT waits for in-flight requests before closing their connections. */
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
    /** Who may read GET /metrics: comma-separated networks (CIDR or single addresses), and/or a bearer token. */
    METRICS_ALLOW: z
      .string()
      .transform((text) =>
        text
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine((entries) => entries.every((entry) => parseNetwork(entry) !== null), {
        error: 'must be comma-separated IP addresses or CIDR networks (e.g. 10.0.0.0/8,127.0.0.1)',
      })
      .optional(),
    METRICS_TOKEN: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    /** Abuse ceilings on sending verification codes (sign-up and withdrawal together), per hour. */
    CODE_LIMIT_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(10),
    CODE_LIMIT_GLOBAL_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(500),
    /** Login lockout per account (issue #15): after this many failures in a row, increasing waits. */
    LOGIN_LOCK_AFTER_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
    /** The first wait, in minutes; each further failure doubles it, up to LOGIN_LOCK_MAX_MINUTES. */
    LOGIN_LOCK_FIRST_MINUTES: z.coerce.number().int().min(1).max(60).default(1),
    LOGIN_LOCK_MAX_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(60),
    /** Failed logins from one client address (IPv6: one /64) in 15 minutes before it waits 15 minutes. */
    LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
    /** General ceilings per hour (issue #15): any login attempt, and uploads and withdrawals. */
    RATE_LIMIT_LOGIN_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(300),
    RATE_LIMIT_UPLOADS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(60),
    RATE_LIMIT_UPLOADS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(20),
    RATE_LIMIT_WITHDRAWALS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(60),
    RATE_LIMIT_WITHDRAWALS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(20),
    /** The privacy notice in force (RA 10173); a new value asks every borrower to agree again. */
    PRIVACY_NOTICE_VERSION: z
      .string()
      .regex(noticeVersionPattern, { error: 'must be 1–64 letters, digits, dots, dashes or underscores' })
      .default(DEFAULT_PRIVACY_NOTICE_VERSION),
    /** How borrowers reach the data protection officer (name, e-mail, phone, address), shown in the notice. */
    DPO_CONTACT: z.string().trim().min(3).max(500).optional(),
    /** A JSON file with the lender's own notice in en, zh, km and fil (see src/server/privacy/notice.ts). */
    PRIVACY_NOTICE_FILE: z.string().min(1).optional(),
    /** Years a closed account's personal data is kept before it is anonymised (docs/decisions/019). */
    RETENTION_YEARS: z.coerce.number().int().min(1).max(30).default(5),
    /**
     * Staff roles that must use a second factor (docs/decisions/017): a comma-separated list of officer,
     * finance, admin, or "none". Others may enrol by choice.
     */
    STAFF_2FA_REQUIRED_ROLES: z
      .string()
      .transform((text, ctx) => {
        if (text.trim() === 'none') return [];
        const parts = text.split(',').map((part) => part.trim());
        const unknown = parts.filter((part) => !(staffRoleNames as readonly string[]).includes(part));
        if (unknown.length > 0) {
          ctx.addIssue({
            code: 'custom',
            message: `must list officer, finance or admin (comma-separated), or be none; not ${unknown.join(', ')}`,
          });
          return z.NEVER;
        }
        return parts as StaffRoleName[];
      })
      .default(['admin', 'finance']),
    /** Staff sessions end after this long without a request, and this long after sign-in in any case. */
    STAFF_SESSION_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(30),
    STAFF_SESSION_ABSOLUTE_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24)
      .default(12),
    /** Passkeys: the relying party id (a domain) and the origin browsers sign for; default from PUBLIC_URL or the request. */
    WEBAUTHN_RP_ID: z
      .string()
      .regex(/^[a-z0-9.-]+$/i, { error: 'must be a domain name such as lend.example.com' })
      .optional(),
    WEBAUTHN_ORIGIN: z.url({ protocol: /^https?$/, error: 'must be an http(s) origin' }).optional(),
    /** Test runs only: a shorter wait before another code may be sent (SPEC §5 says 60 s). */
    CODE_RESEND_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
    /**
     * Test runs only: the app's clock starts at this instant and runs on from there, so a browser test can
     * restart the server weeks later on the same data (an instalment overdue, a reminder due).
     */
    TEST_CLOCK_START: z.iso.datetime({ offset: true }).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NOTIFIER === 'webhook' && !env.SMS_WEBHOOK_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_WEBHOOK_URL'],
        message: 'is required when NOTIFIER=webhook',
      });
    }
    // Several instances must share one secret, or sessions and code hashes differ between them.
    if (env.NODE_ENV === 'production' && env.DATABASE_URL && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'is required in production with DATABASE_URL',
      });
    }
    // The 60 s resend wait is a SPEC rule; only a test run (e.g. the browser tests) may shorten it.
    if (env.CODE_RESEND_SECONDS !== undefined && env.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['CODE_RESEND_SECONDS'],
        message: 'can only be set when NODE_ENV=test',
      });
    }
    if (env.TEST_CLOCK_START !== undefined && env.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['TEST_CLOCK_START'],
        message: 'can only be set when NODE_ENV=test',
      });
    }
    if (env.LOGIN_LOCK_MAX_MINUTES < env.LOGIN_LOCK_FIRST_MINUTES) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOGIN_LOCK_MAX_MINUTES'],
        message: 'must be at least LOGIN_LOCK_FIRST_MINUTES',
      });
    }
    if (env.STAFF_SESSION_IDLE_MINUTES > env.STAFF_SESSION_ABSOLUTE_HOURS * 60) {
      ctx.addIssue({
        code: 'custom',
        path: ['STAFF_SESSION_IDLE_MINUTES'],
        message: 'must not be longer than STAFF_SESSION_ABSOLUTE_HOURS',
      });
    }
    if (env.WEBAUTHN_RP_ID && env.WEBAUTHN_ORIGIN) {
      const host = new URL(env.WEBAUTHN_ORIGIN).hostname;
      if (host !== env.WEBAUTHN_RP_ID && !host.endsWith(`.${env.WEBAUTHN_RP_ID}`)) {
        ctx.addIssue({
          code: 'custom',
          path: ['WEBAUTHN_RP_ID'],
          message: 'must be the host of WEBAUTHN_ORIGIN or a parent domain of it',
        });
      }
    }
    if (env.PAYMENTS_WEBHOOK_SECRET && !env.PAYMENTS_WEBHOOK_CHANNEL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS_WEBHOOK_CHANNEL'],
        message: 'is required when PAYMENTS_WEBHOOK_SECRET is set',
      });
    }
    const channels = env.PAYMENT_CHANNELS ?? defaultPaymentChannels;
    if (env.PAYMENTS_WEBHOOK_CHANNEL && !channels.some((c) => c.code === env.PAYMENTS_WEBHOOK_CHANNEL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS_WEBHOOK_CHANNEL'],
        message: `must be one of the payment channel codes (${channels.map((c) => c.code).join(', ')})`,
      });
    }
    if (env.STORAGE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE=s3' });
    }
    // Files of some instances on their own disks while others use the bucket would be lost in a scale-out.
    if (env.STORAGE === 'local' && (env.S3_BUCKET || env.S3_ENDPOINT)) {
      ctx.addIssue({
        code: 'custom',
        path: ['STORAGE'],
        message: 'must be s3 when S3_BUCKET or S3_ENDPOINT is set (files would stay on this machine)',
      });
    }
    // Codes belong to the borrower (SPEC principle 3): never expose them through the outbox in production.
    if (env.NODE_ENV === 'production' && env.DEV_OUTBOX === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEV_OUTBOX'],
        message: 'cannot be enabled when NODE_ENV=production',
      });
    }
  });

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  databasePreparedStatements: boolean;
  sessionCacheMs: number;
  staffAnswerCacheMs: number;
  sessionSecret: string;
  publicUrl: string | undefined;
  secureCookies: boolean;
  notifier: 'outbox' | 'webhook';
  smsWebhookUrl: string | undefined;
  devOutbox: boolean;
  /** Serve /api/docs (API_DOCS; default: outside production only). */
  apiDocs: boolean;
  timeZone: string;
  supportEmail: string;
  /** The decision time the lender states to borrowers (APPLICATION_REVIEW_HOURS). */
  applicationReviewHours: number;
  /** The regulator's contact, shown with how to complain (REGULATOR_CONTACT). */
  regulatorContact: string;
  /** Whose X-Forwarded-For to believe (TRUST_PROXY): nobody's, that many hops, or these proxies. */
  trustProxy: TrustProxy;
  logLevel: string;
  /** Seconds before another verification code may be sent to the same phone (SPEC §5: 60). */
  codeResendSeconds: number;
  /** Codes sent per hour at most from one client address (IPv6: one /64), and from everyone together. */
  codeLimits: { perIpPerHour: number; globalPerHour: number };
  /** Login lockout: per account, increasing waits (first, doubling, capped); per address, a fixed lock. */
  loginLockout: LoginLockoutConfig;
  /** General per-hour ceilings per client address (IPv6: one /64) and per signed-in account. */
  rateLimits: RateLimitsConfig;
  /** Test runs only (NODE_ENV=test): where the app's clock starts; null means the real time. */
  testClockStart: Date | null;
  /** SPEC §6: one rate everywhere, fees zero unless configured. Amount ranges and terms are the SPEC's. */
  loanProduct: LoanProduct;
  /** Approvals of an amount above this (minor units) need a second staff member (FOUR_EYES_THRESHOLD). */
  fourEyesThresholdMinor: number;
  /** Grace days and late charge (docs/decisions/010); within the SEC ceilings with the product. */
  repaymentRules: RepaymentRules;
  paymentChannels: PaymentChannelConfig[];
  /** The payment provider's webhook: its shared secret and the channel its payments are recorded on. */
  paymentsWebhook: { secret: string; channel: string } | null;
  /** Scheduled jobs: on or off on this instance, and how often they run. */
  jobs: { enabled: boolean; intervalSeconds: number };
  /** When payment reminders go out (docs/decisions/013). */
  reminderRules: ReminderRules;
  /** Where files live (STORAGE): local disk under `dataDir/files`, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** How long shutdown waits for in-flight requests (SHUTDOWN_TIMEOUT_SECONDS). */
  shutdownTimeoutMs: number;
  /** Who may read GET /metrics (METRICS_ALLOW, METRICS_TOKEN); neither: the route is off. */
  metrics: MetricsAccess;
  /** The privacy notice and retention (issue #14, docs/decisions/019). */
  privacy: PrivacyConfig;
  /** Staff sign-in (docs/decisions/017): who must use a second factor, session limits, passkeys. */
  staffSignIn: StaffSignInConfig;
}

export interface PrivacyConfig {
  noticeVersion: string;
  dpoContact: string;
  /** The notice in every language, placeholders not yet filled. */
  noticeTexts: NoticeTexts;
  retentionYears: number;
}

/** The default privacy settings for a given support e-mail (tests and the defaults of loadConfig). */
export function defaultPrivacyConfig(supportEmail: string): PrivacyConfig {
  return {
    noticeVersion: DEFAULT_PRIVACY_NOTICE_VERSION,
    dpoContact: `Data Protection Officer, ${supportEmail}`,
    noticeTexts: defaultNoticeTexts,
    retentionYears: 5,
  };
}

export interface LoginLockoutConfig {
  afterFailures: number;
  firstMinutes: number;
  maxMinutes: number;
  failuresPerIp: number;
}

export interface RateLimitsConfig {
  login: { perIpPerHour: number };
  uploads: { perIpPerHour: number; perAccountPerHour: number };
  withdrawals: { perIpPerHour: number; perAccountPerHour: number };
}

export interface StaffSignInConfig {
  secondFactorRequiredRoles: readonly ('officer' | 'finance' | 'admin')[];
  idleMinutes: number;
  absoluteHours: number;
  /** Unset: from PUBLIC_URL, else from the request's host. */
  webauthnRpId: string | undefined;
  webauthnOrigin: string | undefined;
}

export type StorageConfig =
  | { kind: 'local' }
  | { kind: 's3'; bucket: string; region: string; endpoint: string | undefined; forcePathStyle: boolean };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * The start-up warning while borrowers are shown example payment channels (PAYMENT_CHANNELS unset, or still
 * holding an example's account details): one line naming what to set. Null once every channel is real.
 */
export function paymentChannelsWarning(config: Pick<Config, 'paymentChannels'>): string | null {
  const examples = config.paymentChannels.filter(isExampleChannel).map((c) => c.code);
  if (examples.length === 0) return null;
  return (
    `PAYMENT_CHANNELS: borrowers are shown example payment channels (${examples.join(', ')}), marked ` +
    '"Example, do not pay"; set PAYMENT_CHANNELS to your own accounts (README, Configuration)'
  );
}

/** Reads and validates the environment; throws ConfigError listing every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, so `PORT= npm start` behaves like no PORT at all.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'} ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const loanProduct: LoanProduct = {
    ...defaultLoanProduct,
    monthlyRateBp: e.LOAN_MONTHLY_RATE_BP,
    fees: { flatMinor: toMinor(e.LOAN_FEE_FLAT), percentBp: e.LOAN_FEE_PERCENT_BP },
  };
  const repaymentRules: RepaymentRules = {
    graceDays: e.REPAYMENT_GRACE_DAYS,
    lateChargeMonthlyBp: e.LATE_CHARGE_MONTHLY_BP,
  };
  try {
    assertLoanProduct(loanProduct);
    // The Philippine ceilings (rate, effective rate, late charge, total cost): refuse to lend above them.
    assertWithinCostCaps(loanProduct, repaymentRules);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
  let noticeTexts = defaultNoticeTexts;
  if (e.PRIVACY_NOTICE_FILE) {
    try {
      noticeTexts = readNoticeFile(e.PRIVACY_NOTICE_FILE);
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
    }
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    sessionCacheMs: e.SESSION_CACHE_MS,
    staffAnswerCacheMs: e.STAFF_ANSWER_CACHE_MS,
    sessionSecret: e.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    publicUrl: e.PUBLIC_URL,
    secureCookies: e.PUBLIC_URL?.startsWith('https:') ?? e.NODE_ENV === 'production',
    notifier: e.NOTIFIER,
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    devOutbox: e.DEV_OUTBOX ?? e.NODE_ENV !== 'production',
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
    timeZone: e.TIME_ZONE,
    supportEmail: e.SUPPORT_EMAIL,
    applicationReviewHours: e.APPLICATION_REVIEW_HOURS,
    regulatorContact: e.REGULATOR_CONTACT,
    trustProxy: e.TRUST_PROXY ?? false,
    logLevel: e.LOG_LEVEL,
    codeResendSeconds: e.CODE_RESEND_SECONDS ?? codePolicy.resendAfterSeconds,
    codeLimits: {
      perIpPerHour: e.CODE_LIMIT_PER_IP_PER_HOUR,
      globalPerHour: e.CODE_LIMIT_GLOBAL_PER_HOUR,
    },
    loginLockout: {
      afterFailures: e.LOGIN_LOCK_AFTER_FAILURES,
      firstMinutes: e.LOGIN_LOCK_FIRST_MINUTES,
      maxMinutes: e.LOGIN_LOCK_MAX_MINUTES,
      failuresPerIp: e.LOGIN_FAILURES_PER_IP,
    },
    rateLimits: {
      login: { perIpPerHour: e.RATE_LIMIT_LOGIN_PER_IP_PER_HOUR },
      uploads: {
        perIpPerHour: e.RATE_LIMIT_UPLOADS_PER_IP_PER_HOUR,
        perAccountPerHour: e.RATE_LIMIT_UPLOADS_PER_ACCOUNT_PER_HOUR,
      },
      withdrawals: {
        perIpPerHour: e.RATE_LIMIT_WITHDRAWALS_PER_IP_PER_HOUR,
        perAccountPerHour: e.RATE_LIMIT_WITHDRAWALS_PER_ACCOUNT_PER_HOUR,
      },
    },
    testClockStart: e.TEST_CLOCK_START ? new Date(e.TEST_CLOCK_START) : null,
    loanProduct,
    fourEyesThresholdMinor: toMinor(e.FOUR_EYES_THRESHOLD),
    repaymentRules,
    paymentChannels: e.PAYMENT_CHANNELS ?? [...defaultPaymentChannels],
    paymentsWebhook:
      e.PAYMENTS_WEBHOOK_SECRET && e.PAYMENTS_WEBHOOK_CHANNEL
        ? { secret: e.PAYMENTS_WEBHOOK_SECRET, channel: e.PAYMENTS_WEBHOOK_CHANNEL }
        : null,
    jobs: { enabled: e.JOBS_ENABLED, intervalSeconds: e.JOBS_INTERVAL_SECONDS },
    reminderRules: {
      daysBefore: e.REMINDER_DAYS_BEFORE,
      overdueEveryDays: e.REMINDER_OVERDUE_EVERY_DAYS,
      overdueMaxPerInstalment: e.REMINDER_OVERDUE_MAX,
    },
    storage:
      e.STORAGE === 's3' && e.S3_BUCKET
        ? {
            kind: 's3',
            bucket: e.S3_BUCKET,
            // MinIO and most S3-compatible services accept us-east-1; R2 wants "auto", Garage its own name.
            region: e.S3_REGION ?? e.AWS_REGION ?? 'us-east-1',
            endpoint: e.S3_ENDPOINT,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { kind: 'local' },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    metrics: { allow: e.METRICS_ALLOW ?? [], token: e.METRICS_TOKEN },
    privacy: {
      noticeVersion: e.PRIVACY_NOTICE_VERSION,
      dpoContact: e.DPO_CONTACT ?? defaultPrivacyConfig(e.SUPPORT_EMAIL).dpoContact,
      noticeTexts,
      retentionYears: e.RETENTION_YEARS,
    },
    staffSignIn: {
      secondFactorRequiredRoles: e.STAFF_2FA_REQUIRED_ROLES,
      idleMinutes: e.STAFF_SESSION_IDLE_MINUTES,
      absoluteHours: e.STAFF_SESSION_ABSOLUTE_HOURS,
      webauthnRpId: e.WEBAUTHN_RP_ID,
      webauthnOrigin: e.WEBAUTHN_ORIGIN,
    },
  };
}

/** A generated secret is kept under the data dir so sessions and code hashes survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const path = join(dataDir, 'session-secret');
  if (existsSync(path)) {
    const secret = readFileSync(path, 'utf8').trim();
    if (secret.length >= 32) return secret;
    throw new ConfigError(`The stored secret in ${path} is too short; delete it or set SESSION_SECRET.`);
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
