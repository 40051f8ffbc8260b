import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultLoanProduct } from '../domain/loan/terms';
import { defaultPaymentChannels, isExampleChannel } from '../domain/schemas/settings';
import { ConfigError, DEFAULT_REGULATOR_CONTACT, loadConfig, paymentChannelsWarning } from './config';
import { defaultNoticeTexts } from './privacy/notice';

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'hiram-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Always with a temp DATA_DIR: the generated secret must never land in the repository. */
  const load = (env: Record<string, string | undefined> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });

  const expectConfigError = (env: Record<string, string | undefined>, variable: string, message?: RegExp) => {
    let caught: unknown;
    try {
      load(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const text = (caught as ConfigError).message;
    expect(text).toMatch(new RegExp(`^\\s+${variable} `, 'm'));
    if (message) expect(text).toMatch(message);
    return text;
  };

  it('has the documented defaults', () => {
    const config = load();
    expect(config).toEqual({
      env: 'development',
      host: '0.0.0.0',
      port: 3000,
      dataDir,
      databaseUrl: undefined,
      databasePoolSize: 10,
      databasePreparedStatements: true,
      sessionCacheMs: 2_000,
      staffAnswerCacheMs: 2_000,
      sessionSecret: expect.any(String),
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
      logLevel: 'info',
      codeResendSeconds: 60,
      codeLimits: { perIpPerHour: 10, globalPerHour: 500 },
      loginLockout: { afterFailures: 5, firstMinutes: 1, maxMinutes: 60, failuresPerIp: 30 },
      rateLimits: {
        login: { perIpPerHour: 300 },
        uploads: { perIpPerHour: 60, perAccountPerHour: 20 },
        withdrawals: { perIpPerHour: 60, perAccountPerHour: 20 },
      },
      testClockStart: null,
      loanProduct: defaultLoanProduct,
      fourEyesThresholdMinor: 10_000_000,
      repaymentRules: { graceDays: 3, lateChargeMonthlyBp: 0 },
      paymentChannels: defaultPaymentChannels,
      paymentsWebhook: null,
      jobs: { enabled: true, intervalSeconds: 300 },
      reminderRules: { daysBefore: 3, overdueEveryDays: 7, overdueMaxPerInstalment: 4 },
      storage: { kind: 'local' },
      shutdownTimeoutMs: 10_000,
      metrics: { allow: [], token: undefined },
      privacy: {
        noticeVersion: '2026-11-23',
        dpoContact: 'Data Protection Officer, support@example.com',
        noticeTexts: defaultNoticeTexts,
        retentionYears: 5,
      },
      staffSignIn: {
        secondFactorRequiredRoles: ['admin', 'finance'],
        idleMinutes: 30,
        absoluteHours: 12,
        webauthnRpId: undefined,
        webauthnOrigin: undefined,
      },
    });
  });

  it('reads the review time the lender states, and refuses one that is not 1–720 whole hours', () => {
    expect(load({ APPLICATION_REVIEW_HOURS: '48' }).applicationReviewHours).toBe(48);
    for (const bad of ['0', '721', '1.5', 'a day']) {
      expect(() => load({ APPLICATION_REVIEW_HOURS: bad })).toThrow(/APPLICATION_REVIEW_HOURS must be/);
    }
  });

  it('reads who may see /metrics and refuses what is not a network or a long enough token', () => {
    expect(
      load({ METRICS_ALLOW: '10.0.0.0/8, 127.0.0.1,fd00::/8', METRICS_TOKEN: 't'.repeat(32) }).metrics,
    ).toEqual({
      allow: ['10.0.0.0/8', '127.0.0.1', 'fd00::/8'],
      token: 't'.repeat(32),
    });
    expect(() => load({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow(/METRICS_ALLOW must be/);
    expect(() => load({ METRICS_ALLOW: 'example.com' })).toThrow(/METRICS_ALLOW must be/);
    expect(() => load({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 32/);
  });

  it('reads the login lockout and rate limits, and refuses a cap below the first wait', () => {
    expect(
      load({
        LOGIN_LOCK_AFTER_FAILURES: '3',
        LOGIN_LOCK_FIRST_MINUTES: '2',
        LOGIN_LOCK_MAX_MINUTES: '30',
        LOGIN_FAILURES_PER_IP: '50',
        RATE_LIMIT_LOGIN_PER_IP_PER_HOUR: '7',
        RATE_LIMIT_UPLOADS_PER_ACCOUNT_PER_HOUR: '4',
        RATE_LIMIT_WITHDRAWALS_PER_IP_PER_HOUR: '9',
      }),
    ).toMatchObject({
      loginLockout: { afterFailures: 3, firstMinutes: 2, maxMinutes: 30, failuresPerIp: 50 },
      rateLimits: {
        login: { perIpPerHour: 7 },
        uploads: { perIpPerHour: 60, perAccountPerHour: 4 },
        withdrawals: { perIpPerHour: 9, perAccountPerHour: 20 },
      },
    });
    expectConfigError(
      { LOGIN_LOCK_FIRST_MINUTES: '10', LOGIN_LOCK_MAX_MINUTES: '5' },
      'LOGIN_LOCK_MAX_MINUTES',
    );
    expectConfigError({ RATE_LIMIT_LOGIN_PER_IP_PER_HOUR: '0' }, 'RATE_LIMIT_LOGIN_PER_IP_PER_HOUR');
  });

  it('reads the privacy notice settings and refuses a notice file that lacks a language or a section', () => {
    const notice = JSON.parse(JSON.stringify(defaultNoticeTexts));
    notice.fil.title = 'Abiso';
    const file = join(dataDir, 'notice.json');
    writeFileSync(file, JSON.stringify(notice));
    const config = load({
      PRIVACY_NOTICE_VERSION: 'v3.1',
      DPO_CONTACT: 'Ana Cruz, dpo@lender.example, +63 2 8123 4567',
      PRIVACY_NOTICE_FILE: file,
      RETENTION_YEARS: '10',
    });
    expect(config.privacy).toEqual({
      noticeVersion: 'v3.1',
      dpoContact: 'Ana Cruz, dpo@lender.example, +63 2 8123 4567',
      noticeTexts: { ...defaultNoticeTexts, fil: { ...defaultNoticeTexts.fil, title: 'Abiso' } },
      retentionYears: 10,
    });
    expect(load({ SUPPORT_EMAIL: 'help@lender.example' }).privacy.dpoContact).toBe(
      'Data Protection Officer, help@lender.example',
    );
    expectConfigError({ PRIVACY_NOTICE_VERSION: 'new version!' }, 'PRIVACY_NOTICE_VERSION');
    expectConfigError({ RETENTION_YEARS: '0' }, 'RETENTION_YEARS');
    expectConfigError({ RETENTION_YEARS: '2.5' }, 'RETENTION_YEARS');

    delete notice.km;
    notice.en.sections.rights.body = ' ';
    writeFileSync(file, JSON.stringify(notice));
    expect(() => load({ PRIVACY_NOTICE_FILE: file })).toThrow(ConfigError);
    expect(() => load({ PRIVACY_NOTICE_FILE: file })).toThrow(
      /missing or empty: .*en\.sections\.rights\.body.*km/,
    );
    writeFileSync(file, '{ not json');
    expect(() => load({ PRIVACY_NOTICE_FILE: file })).toThrow(/cannot be read as JSON/);
    expect(() => load({ PRIVACY_NOTICE_FILE: join(dataDir, 'missing.json') })).toThrow(ConfigError);
  });

  it('reads the regulator contact (trimmed), naming the SEC by default, and refuses a useless one', () => {
    expect(load({}).regulatorContact).toContain('Securities and Exchange Commission (SEC) Philippines');
    expect(load({ REGULATOR_CONTACT: '  SEC FLCD, flcd@example.ph  ' }).regulatorContact).toBe(
      'SEC FLCD, flcd@example.ph',
    );
    expectConfigError({ REGULATOR_CONTACT: 'SEC' }, 'REGULATOR_CONTACT');
    expectConfigError({ REGULATOR_CONTACT: 'x'.repeat(501) }, 'REGULATOR_CONTACT');
    expectConfigError({ REGULATOR_CONTACT: 'SEC Philippines\nline two' }, 'REGULATOR_CONTACT');
  });

  it('reads the staff sign-in settings and refuses bad ones', () => {
    expect(load({ STAFF_2FA_REQUIRED_ROLES: 'none' }).staffSignIn.secondFactorRequiredRoles).toEqual([]);
    expect(
      load({ STAFF_2FA_REQUIRED_ROLES: 'admin, officer,finance' }).staffSignIn.secondFactorRequiredRoles,
    ).toEqual(['admin', 'officer', 'finance']);
    expectConfigError({ STAFF_2FA_REQUIRED_ROLES: 'admin,borrower' }, 'STAFF_2FA_REQUIRED_ROLES');
    const limits = load({ STAFF_SESSION_IDLE_MINUTES: '15', STAFF_SESSION_ABSOLUTE_HOURS: '8' }).staffSignIn;
    expect([limits.idleMinutes, limits.absoluteHours]).toEqual([15, 8]);
    expectConfigError({ STAFF_SESSION_IDLE_MINUTES: '1' }, 'STAFF_SESSION_IDLE_MINUTES');
    expectConfigError(
      { STAFF_SESSION_IDLE_MINUTES: '180', STAFF_SESSION_ABSOLUTE_HOURS: '2' },
      'STAFF_SESSION_IDLE_MINUTES',
      /not be longer/,
    );
    expectConfigError(
      { WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://lend.other.org' },
      'WEBAUTHN_RP_ID',
    );
    expect(
      load({ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://lend.example.com' }).staffSignIn
        .webauthnRpId,
    ).toBe('example.com');
  });

  it('reads the session cache time limit (0 turns it off) and refuses one outside 0–10,000 ms', () => {
    expect(load({ SESSION_CACHE_MS: '0' }).sessionCacheMs).toBe(0);
    expect(load({ SESSION_CACHE_MS: '500' }).sessionCacheMs).toBe(500);
    expectConfigError({ SESSION_CACHE_MS: '10001' }, 'SESSION_CACHE_MS');
    expectConfigError({ SESSION_CACHE_MS: '-1' }, 'SESSION_CACHE_MS');
    expectConfigError({ SESSION_CACHE_MS: '1.5' }, 'SESSION_CACHE_MS');
  });

  it('reads the back-office answer cache time limit (0 turns it off) and refuses one outside 0–10,000 ms', () => {
    expect(load({ STAFF_ANSWER_CACHE_MS: '0' }).staffAnswerCacheMs).toBe(0);
    expect(load({ STAFF_ANSWER_CACHE_MS: '750' }).staffAnswerCacheMs).toBe(750);
    expectConfigError({ STAFF_ANSWER_CACHE_MS: '10001' }, 'STAFF_ANSWER_CACHE_MS');
    expectConfigError({ STAFF_ANSWER_CACHE_MS: '-1' }, 'STAFF_ANSWER_CACHE_MS');
    expectConfigError({ STAFF_ANSWER_CACHE_MS: 'soon' }, 'STAFF_ANSWER_CACHE_MS');
  });

  it('reads the jobs and reminder settings and refuses values outside their ranges', () => {
    expect(
      load({
        JOBS_ENABLED: 'off',
        JOBS_INTERVAL_SECONDS: '60',
        REMINDER_DAYS_BEFORE: '0',
        REMINDER_OVERDUE_EVERY_DAYS: '14',
        REMINDER_OVERDUE_MAX: '2',
      }),
    ).toMatchObject({
      jobs: { enabled: false, intervalSeconds: 60 },
      reminderRules: { daysBefore: 0, overdueEveryDays: 14, overdueMaxPerInstalment: 2 },
    });
    expectConfigError({ JOBS_ENABLED: 'maybe' }, 'JOBS_ENABLED');
    expectConfigError({ JOBS_INTERVAL_SECONDS: '5' }, 'JOBS_INTERVAL_SECONDS');
    expectConfigError({ REMINDER_DAYS_BEFORE: '-1' }, 'REMINDER_DAYS_BEFORE');
    expectConfigError({ REMINDER_DAYS_BEFORE: '15' }, 'REMINDER_DAYS_BEFORE');
    expectConfigError({ REMINDER_OVERDUE_EVERY_DAYS: '0' }, 'REMINDER_OVERDUE_EVERY_DAYS');
    expectConfigError({ REMINDER_OVERDUE_EVERY_DAYS: '1.5' }, 'REMINDER_OVERDUE_EVERY_DAYS');
    expectConfigError({ REMINDER_OVERDUE_MAX: '13' }, 'REMINDER_OVERDUE_MAX');
  });

  it('stores files in an S3-compatible bucket with STORAGE=s3', () => {
    const s3 = { STORAGE: 's3', S3_BUCKET: 'hiram-files' };
    expect(load(s3).storage).toEqual({
      kind: 's3',
      bucket: 'hiram-files',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
    });
    expect(load({ ...s3, AWS_REGION: 'ap-southeast-1' }).storage).toMatchObject({ region: 'ap-southeast-1' });
    expect(
      load({
        ...s3,
        S3_REGION: 'auto',
        AWS_REGION: 'ap-southeast-1',
        S3_ENDPOINT: 'http://minio.internal:9000',
        S3_FORCE_PATH_STYLE: 'true',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'hiram-files',
      region: 'auto',
      endpoint: 'http://minio.internal:9000',
      forcePathStyle: true,
    });
  });

  it('refuses to start with STORAGE=s3 but no bucket, or a bucket without STORAGE=s3', () => {
    expectConfigError({ STORAGE: 's3' }, 'S3_BUCKET', /required when STORAGE=s3/);
    expectConfigError({ STORAGE: 's3', S3_BUCKET: '' }, 'S3_BUCKET', /required when STORAGE=s3/);
    expectConfigError({ S3_BUCKET: 'hiram-files' }, 'STORAGE', /must be s3/);
    expectConfigError({ STORAGE: 'disk' }, 'STORAGE');
    expectConfigError({ STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT');
    expectConfigError({ STORAGE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'sure' }, 'S3_FORCE_PATH_STYLE');
  });

  it('bounds the shutdown wait', () => {
    expect(load({ SHUTDOWN_TIMEOUT_SECONDS: '3' }).shutdownTimeoutMs).toBe(3000);
    expectConfigError({ SHUTDOWN_TIMEOUT_SECONDS: '0' }, 'SHUTDOWN_TIMEOUT_SECONDS');
  });

  it('turns the payment webhook on with a long secret and a configured channel only', () => {
    const secret = 'w'.repeat(32);
    expect(
      load({ PAYMENTS_WEBHOOK_SECRET: secret, PAYMENTS_WEBHOOK_CHANNEL: 'gcash' }).paymentsWebhook,
    ).toEqual({
      secret,
      channel: 'gcash',
    });
    expectConfigError(
      { PAYMENTS_WEBHOOK_SECRET: 'short', PAYMENTS_WEBHOOK_CHANNEL: 'gcash' },
      'PAYMENTS_WEBHOOK_SECRET',
    );
    expectConfigError({ PAYMENTS_WEBHOOK_SECRET: secret }, 'PAYMENTS_WEBHOOK_CHANNEL', /required/);
    expectConfigError(
      { PAYMENTS_WEBHOOK_SECRET: secret, PAYMENTS_WEBHOOK_CHANNEL: 'paypal' },
      'PAYMENTS_WEBHOOK_CHANNEL',
      /gcash/,
    );
  });

  it('lets a test run shorten the code resend wait, and refuses it anywhere else', () => {
    expect(load({ NODE_ENV: 'test', CODE_RESEND_SECONDS: '3' }).codeResendSeconds).toBe(3);
    expect(load({ NODE_ENV: 'test' }).codeResendSeconds).toBe(60);
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expectConfigError({ NODE_ENV, CODE_RESEND_SECONDS: '3' }, 'CODE_RESEND_SECONDS', /NODE_ENV=test/);
    }
    expectConfigError({ NODE_ENV: 'test', CODE_RESEND_SECONDS: '0' }, 'CODE_RESEND_SECONDS');
  });

  it('reads the hourly ceilings on sending codes, and refuses ones that are not positive integers', () => {
    expect(load({ CODE_LIMIT_PER_IP_PER_HOUR: '3', CODE_LIMIT_GLOBAL_PER_HOUR: '40' }).codeLimits).toEqual({
      perIpPerHour: 3,
      globalPerHour: 40,
    });
    for (const bad of ['0', '-1', '1.5', 'many']) {
      expectConfigError({ CODE_LIMIT_PER_IP_PER_HOUR: bad }, 'CODE_LIMIT_PER_IP_PER_HOUR');
      expectConfigError({ CODE_LIMIT_GLOBAL_PER_HOUR: bad }, 'CODE_LIMIT_GLOBAL_PER_HOUR');
    }
  });

  it('lets a test run start the clock at another instant, and refuses it anywhere else', () => {
    const start = '2027-01-15T02:00:00.000Z';
    expect(load({ NODE_ENV: 'test', TEST_CLOCK_START: start }).testClockStart?.toISOString()).toBe(start);
    expect(load({ NODE_ENV: 'test' }).testClockStart).toBeNull();
    for (const NODE_ENV of ['production', 'development', undefined]) {
      expectConfigError({ NODE_ENV, TEST_CLOCK_START: start }, 'TEST_CLOCK_START', /NODE_ENV=test/);
    }
    expectConfigError({ NODE_ENV: 'test', TEST_CLOCK_START: 'next month' }, 'TEST_CLOCK_START');
  });

  it('does not read process.env when given an env', () => {
    const previous = process.env.PORT;
    process.env.PORT = '4321';
    try {
      expect(load().port).toBe(3000);
    } finally {
      if (previous === undefined) delete process.env.PORT;
      else process.env.PORT = previous;
    }
  });

  it('reads every variable', () => {
    const config = load({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '8080',
      DATABASE_URL: 'postgresql://hiram:pw@db:5432/hiram',
      DATABASE_POOL_SIZE: '25',
      DATABASE_PREPARED_STATEMENTS: 'off',
      SESSION_SECRET: 's'.repeat(40),
      PUBLIC_URL: 'https://loans.example.com',
      NOTIFIER: 'webhook',
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      DEV_OUTBOX: 'false',
      TIME_ZONE: 'Asia/Phnom_Penh',
      SUPPORT_EMAIL: 'help@example.com',
      TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,2001:db8::/32',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      env: 'production',
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: 'postgresql://hiram:pw@db:5432/hiram',
      databasePoolSize: 25,
      databasePreparedStatements: false,
      sessionSecret: 's'.repeat(40),
      publicUrl: 'https://loans.example.com',
      secureCookies: true,
      notifier: 'webhook',
      smsWebhookUrl: 'https://sms.example.com/send',
      devOutbox: false,
      timeZone: 'Asia/Phnom_Penh',
      supportEmail: 'help@example.com',
      trustProxy: ['10.0.0.5', '10.1.0.0/16', '2001:db8::/32'],
      logLevel: 'warn',
    });
  });

  it('TRUST_PROXY takes the proxies (addresses, CIDR ranges) or a hop count, never "trust anyone"', () => {
    expect(load().trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: 'loopback,192.168.0.0/24' }).trustProxy).toEqual([
      'loopback',
      '192.168.0.0/24',
    ]);
    expect(load({ TRUST_PROXY: '::1' }).trustProxy).toEqual(['::1']);
    for (const bad of [
      'true',
      'yes',
      'on',
      '*',
      '0.0.0.0/0/1',
      '10.0.0.0/33',
      '::/129',
      'proxy.example.com',
      '10.0.0.1,',
      '11',
      '-1',
    ])
      expectConfigError({ TRUST_PROXY: bad }, 'TRUST_PROXY');
  });

  it('treats empty values as unset', () => {
    expect(load({ PORT: '', TIME_ZONE: '', DATABASE_URL: '' })).toMatchObject({
      port: 3000,
      timeZone: 'Asia/Manila',
      databaseUrl: undefined,
    });
  });

  it('production defaults: secure cookies, no development outbox', () => {
    expect(load({ NODE_ENV: 'production' })).toMatchObject({ secureCookies: true, devOutbox: false });
    expect(load({ NODE_ENV: 'production', PUBLIC_URL: 'http://intranet.local' }).secureCookies).toBe(false);
    expect(load({ PUBLIC_URL: 'https://loans.example.com' }).secureCookies).toBe(true);
    expect(load({ NODE_ENV: 'test' }).devOutbox).toBe(true);
  });

  it.each(['abc', '0', '65536', '3000.5', '-1'])('refuses PORT=%s', (port) => {
    expectConfigError({ PORT: port }, 'PORT');
  });

  it.each(['mysql://localhost/hiram', 'localhost:5432', 'not a url'])('refuses DATABASE_URL=%s', (url) => {
    expectConfigError({ DATABASE_URL: url }, 'DATABASE_URL', /postgres/);
  });

  it('refuses NOTIFIER=webhook without SMS_WEBHOOK_URL', () => {
    expectConfigError({ NOTIFIER: 'webhook' }, 'SMS_WEBHOOK_URL', /NOTIFIER=webhook/);
  });

  it('refuses an SMS_WEBHOOK_URL that is not http(s)', () => {
    expectConfigError({ NOTIFIER: 'webhook', SMS_WEBHOOK_URL: 'ftp://sms.example.com' }, 'SMS_WEBHOOK_URL');
  });

  it('refuses an unknown NOTIFIER', () => {
    expectConfigError({ NOTIFIER: 'pigeon' }, 'NOTIFIER');
  });

  it('refuses DEV_OUTBOX=true with NODE_ENV=production', () => {
    expectConfigError({ NODE_ENV: 'production', DEV_OUTBOX: 'true' }, 'DEV_OUTBOX', /production/);
    expectConfigError({ NODE_ENV: 'production', DEV_OUTBOX: '1' }, 'DEV_OUTBOX');
  });

  it('refuses a DEV_OUTBOX that is not a flag', () => {
    expectConfigError({ DEV_OUTBOX: 'maybe' }, 'DEV_OUTBOX');
  });

  it.each(['Mars/Olympus_Mons', 'Manila', 'UTC+8'])('refuses TIME_ZONE=%s', (tz) => {
    expectConfigError({ TIME_ZONE: tz }, 'TIME_ZONE', /time zone/);
  });

  it('refuses a short SESSION_SECRET, and a missing one in production with PostgreSQL', () => {
    expectConfigError({ SESSION_SECRET: 'short' }, 'SESSION_SECRET', /32/);
    expectConfigError(
      { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/hiram' },
      'SESSION_SECRET',
      /production with DATABASE_URL/,
    );
  });

  it('refuses an unknown NODE_ENV, LOG_LEVEL and a bad SUPPORT_EMAIL and PUBLIC_URL', () => {
    expectConfigError({ NODE_ENV: 'staging' }, 'NODE_ENV');
    expectConfigError({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL');
    expectConfigError({ SUPPORT_EMAIL: 'nobody' }, 'SUPPORT_EMAIL');
    expectConfigError({ PUBLIC_URL: 'loans.example.com' }, 'PUBLIC_URL');
  });

  it('lists every bad variable at once', () => {
    const text = expectConfigError({ PORT: 'abc', TIME_ZONE: 'Nowhere/City' }, 'PORT');
    expect(text).toMatch(/^\s+TIME_ZONE /m);
    expect(text).toMatch(/^Invalid configuration:/);
  });

  describe('session secret', () => {
    it('is generated once, kept under DATA_DIR (mode 600) and reused', () => {
      const first = load().sessionSecret;
      expect(first.length).toBeGreaterThanOrEqual(48);
      const path = join(dataDir, 'session-secret');
      expect(readFileSync(path, 'utf8').trim()).toBe(first);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(load().sessionSecret).toBe(first);
    });

    it('creates DATA_DIR when missing', () => {
      const nested = join(dataDir, 'a', 'b');
      const secret = load({ DATA_DIR: nested }).sessionSecret;
      expect(readFileSync(join(nested, 'session-secret'), 'utf8').trim()).toBe(secret);
    });

    it('differs between data dirs', () => {
      const other = mkdtempSync(join(tmpdir(), 'hiram-config-'));
      try {
        expect(load({ DATA_DIR: other }).sessionSecret).not.toBe(load().sessionSecret);
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    it('SESSION_SECRET wins and nothing is written', () => {
      expect(load({ SESSION_SECRET: 'x'.repeat(32) }).sessionSecret).toBe('x'.repeat(32));
      expect(() => statSync(join(dataDir, 'session-secret'))).toThrow();
    });

    it('a stored secret that is too short is refused with a ConfigError', () => {
      writeFileSync(join(dataDir, 'session-secret'), 'short\n');
      expect(() => load()).toThrow(ConfigError);
      expect(() => load()).toThrow(/too short/);
    });
  });
});

describe('loan product configuration', () => {
  it('defaults to the SPEC product and takes a configured rate and fees', () => {
    const base = { DATA_DIR: mkdtempSync(join(tmpdir(), 'hiram-config-')), SESSION_SECRET: 'x'.repeat(40) };
    expect(loadConfig(base).loanProduct).toMatchObject({
      monthlyRateBp: 200,
      fees: { flatMinor: 0, percentBp: 0 },
    });
    const custom = loadConfig({
      ...base,
      LOAN_MONTHLY_RATE_BP: '150',
      LOAN_FEE_FLAT: '500',
      LOAN_FEE_PERCENT_BP: '100',
    });
    expect(custom.loanProduct).toMatchObject({
      monthlyRateBp: 150,
      fees: { flatMinor: 50_000, percentBp: 100 },
    });
    expect(() => loadConfig({ ...base, LOAN_MONTHLY_RATE_BP: '2.5' })).toThrow(/LOAN_MONTHLY_RATE_BP/);
    expect(() => loadConfig({ ...base, LOAN_FEE_PERCENT_BP: '-1' })).toThrow(/LOAN_FEE_PERCENT_BP/);
  });
});

describe('four-eyes threshold', () => {
  it('defaults to ₱100,000 in centavos, takes whole pesos and refuses anything else', () => {
    const base = { DATA_DIR: mkdtempSync(join(tmpdir(), 'hiram-config-')), SESSION_SECRET: 'x'.repeat(40) };
    expect(loadConfig(base).fourEyesThresholdMinor).toBe(10_000_000);
    expect(loadConfig({ ...base, FOUR_EYES_THRESHOLD: '250000' }).fourEyesThresholdMinor).toBe(25_000_000);
    for (const bad of ['-1', '1.5', 'lots', '2000000000'])
      expect(() => loadConfig({ ...base, FOUR_EYES_THRESHOLD: bad })).toThrow(/FOUR_EYES_THRESHOLD/);
  });
});

describe('repayment configuration', () => {
  const base = () => ({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'hiram-config-')),
    SESSION_SECRET: 'x'.repeat(40),
  });

  it('refuses a product above the legal ceilings with a clear message', () => {
    // What the server accepted before issue #10: 15 % a month with a 50 % fee.
    expect(() =>
      loadConfig({ ...base(), LOAN_MONTHLY_RATE_BP: '1500', LOAN_FEE_PERCENT_BP: '5000' }),
    ).toThrow(/legal ceilings[\s\S]*monthlyRateBp: monthly rate must be 0–600 bp/);
    expect(() => loadConfig({ ...base(), LOAN_MONTHLY_RATE_BP: '600' })).not.toThrow();
    expect(() => loadConfig({ ...base(), LOAN_MONTHLY_RATE_BP: '601' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), LOAN_FEE_PERCENT_BP: '5000' })).toThrow(/fees/);
  });

  it('takes grace days and a late charge up to 5 % a month, and refuses more', () => {
    expect(
      loadConfig({ ...base(), REPAYMENT_GRACE_DAYS: '5', LATE_CHARGE_MONTHLY_BP: '500' }).repaymentRules,
    ).toEqual({
      graceDays: 5,
      lateChargeMonthlyBp: 500,
    });
    expect(() => loadConfig({ ...base(), LATE_CHARGE_MONTHLY_BP: '501' })).toThrow(
      /late charge must be 0–500 bp/,
    );
    expect(() => loadConfig({ ...base(), REPAYMENT_GRACE_DAYS: '40' })).toThrow(/REPAYMENT_GRACE_DAYS/);
    expect(() => loadConfig({ ...base(), REPAYMENT_GRACE_DAYS: '-1' })).toThrow(/REPAYMENT_GRACE_DAYS/);
  });

  it('reads payment channels from PAYMENT_CHANNELS and refuses a bad list', () => {
    const channels = [
      {
        code: 'bpi',
        name: 'BPI',
        accountDetails: 'Hiram Lending Inc. · 1234-5678-90',
        instructions: 'Quote your loan number',
      },
      { code: 'cash', name: 'Cash' },
    ];
    expect(loadConfig({ ...base(), PAYMENT_CHANNELS: JSON.stringify(channels) }).paymentChannels).toEqual([
      channels[0],
      { code: 'cash', name: 'Cash', accountDetails: null, instructions: null },
    ]);
    expect(() => loadConfig({ ...base(), PAYMENT_CHANNELS: 'not json' })).toThrow(
      /PAYMENT_CHANNELS must be a JSON array/,
    );
    expect(() => loadConfig({ ...base(), PAYMENT_CHANNELS: '[]' })).toThrow(/PAYMENT_CHANNELS/);
    expect(() =>
      loadConfig({ ...base(), PAYMENT_CHANNELS: JSON.stringify([channels[1], channels[1]]) }),
    ).toThrow(/unique/);
    expect(() =>
      loadConfig({ ...base(), PAYMENT_CHANNELS: JSON.stringify([{ code: 'Bad Code', name: 'x' }]) }),
    ).toThrow(/PAYMENT_CHANNELS/);
  });

  it('defaults to example channels that reach nobody, and warns at start until real ones are set', () => {
    const channels = loadConfig(base()).paymentChannels;
    const shown = channels.filter((c) => c.accountDetails !== null);
    expect(shown.map((c) => c.code)).toEqual(['bank_transfer', 'gcash']);
    expect(shown.every(isExampleChannel)).toBe(true);
    // Numbers that look real but are all zeros after the prefix: no stranger's account.
    expect(shown.map((c) => c.accountNumber)).toEqual(['000000000000', '09000000000']);
    expect(paymentChannelsWarning({ paymentChannels: channels })).toBe(
      'PAYMENT_CHANNELS: borrowers are shown example payment channels (bank_transfer, gcash), marked ' +
        '"Example, do not pay"; set PAYMENT_CHANNELS to your own accounts (README, Configuration)',
    );
    // A lender who set their own accounts is not warned; one who kept an example's number still is.
    const own = [
      { code: 'bpi', name: 'BPI', accountDetails: 'Lender Inc. · 1234-5678-90', instructions: null },
    ];
    expect(
      paymentChannelsWarning(loadConfig({ ...base(), PAYMENT_CHANNELS: JSON.stringify(own) })),
    ).toBeNull();
    const kept = [{ ...own[0], code: 'gcash', accountNumber: '09000000000' }];
    expect(paymentChannelsWarning(loadConfig({ ...base(), PAYMENT_CHANNELS: JSON.stringify(kept) }))).toMatch(
      /example payment channels \(gcash\)/,
    );
  });

  it('reads a QR Ph account for a channel, and refuses one no app could pay to with the field to fix', () => {
    const gcashCode =
      '00020101021127830012com.p2pqrpay0111GXCHPHM2XXX02089996440303152170200000006560417DWQM4TK3JDNWIWRDY5204601653036085802PH5908Setnayan6011Holy Spirit6104123463045E2D';
    const channel = (qrPh: unknown, extra: Record<string, unknown> = {}) =>
      JSON.stringify([
        {
          code: 'gcash',
          name: 'GCash',
          accountDetails: 'GCash · Lender Inc. · 0917 555 0101',
          qrPh,
          ...extra,
        },
      ]);
    expect(
      loadConfig({ ...base(), PAYMENT_CHANNELS: channel({ payload: gcashCode }) }).paymentChannels[0]?.qrPh,
    ).toEqual({
      payload: gcashCode,
    });
    const fields = {
      type: 'p2p',
      bic: 'BNORPHMMXXX',
      accountNumber: '006540283953',
      merchantName: 'Lender Inc',
      merchantCity: 'Makati City',
      maxAmount: 50_000,
    };
    expect(loadConfig({ ...base(), PAYMENT_CHANNELS: channel(fields) }).paymentChannels[0]?.qrPh).toEqual(
      fields,
    );

    const refused = (qrPh: unknown, extra?: Record<string, unknown>) => {
      try {
        loadConfig({ ...base(), PAYMENT_CHANNELS: channel(qrPh, extra) });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ payload: `${gcashCode.slice(0, -4)}0000` })).toMatch(/PAYMENT_CHANNELS\.0\.qrPh .*CRC/);
    expect(refused({ ...fields, bic: 'BDO' })).toMatch(/PAYMENT_CHANNELS\.0\.qrPh bic must be/);
    expect(refused({ ...fields, merchantName: 'Peñafrancia Lending' })).toMatch(/merchantName must be/);
    expect(refused({ ...fields, type: 'p3p' })).toMatch(/type must be "p2p"/);
    expect(refused({ ...fields, colour: 'red' })).toMatch(/PAYMENT_CHANNELS\.0\.qrPh/);
    expect(refused({ payload: gcashCode }, { accountDetails: null })).toMatch(
      /PAYMENT_CHANNELS\.0\.accountDetails is required with qrPh/,
    );
  });
});
