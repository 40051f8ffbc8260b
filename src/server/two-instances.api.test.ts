import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from './auth/passwords';
import { DEFAULT_PRIVACY_NOTICE_VERSION } from './config';
import { type OpenDatabase, openDatabase } from './db/open';
import {
  type AppProcess,
  HttpBrowser,
  openPendingEvents,
  outboxCode,
  startAppProcess,
  waitUntilReady,
} from './test-support/app-process';
import { applicationFields } from './test-support/application-form';
import { multipartBody, pngPhoto, signaturePng } from './test-support/images';
import { S3_TEST_CREDENTIALS, type S3TestServer, startS3TestServer } from './test-support/s3-server';
import { seedApplication } from './test-support/seed';
import { createPostgresDatabase, TEST_SESSION_SECRET, testDbKind } from './test-support/test-app';

/**
 * Two app processes behind an imagined load balancer: one PostgreSQL database, one S3 bucket, one
 * SESSION_SECRET, nothing else shared (each has its own DATA_DIR and its own memory). Everything the test
 * shows it shows through HTTP; the database is used only to set up staff users and one approved loan.
 */
describe.skipIf(testDbKind() !== 'postgres')('two instances on one PostgreSQL', { timeout: 60_000 }, () => {
  const RESEND_SECONDS = 4;
  const cleanups: (() => Promise<void> | void)[] = [];
  let a: AppProcess;
  let b: AppProcess;
  let database: OpenDatabase;
  let s3: S3TestServer;
  const staff = { officer: '', finance: '', password: 'staff-password-123' };
  let phones = 0;
  const nextPhone = () => `0917${String(++phones).padStart(7, '0')}`;

  beforeAll(async () => {
    try {
      const created = await createPostgresDatabase();
      cleanups.push(created.drop);
      s3 = await startS3TestServer('hiram-two-instances');
      cleanups.push(() => s3.close());
      const env = (): Record<string, string> => {
        const dataDir = mkdtempSync(join(tmpdir(), 'hiram-instance-'));
        cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
        return {
          DATA_DIR: dataDir,
          DATABASE_URL: created.url,
          DATABASE_POOL_SIZE: '8',
          SESSION_SECRET: TEST_SESSION_SECRET,
          CODE_RESEND_SECONDS: String(RESEND_SECONDS),
          STORAGE: 's3',
          S3_BUCKET: s3.bucket,
          S3_REGION: s3.region,
          S3_ENDPOINT: s3.endpoint,
          S3_FORCE_PATH_STYLE: 'true',
          AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
        };
      };
      // Both start at once on the empty database: one migrates, the other waits (the migration lock).
      [a, b] = await Promise.all([startAppProcess('A', env()), startAppProcess('B', env())]);
      cleanups.push(
        () => a.stop(),
        () => b.stop(),
      );
      await Promise.all([waitUntilReady(a), waitUntilReady(b)]);

      database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
      cleanups.push(() => database.close());
      const passwordHash = await hashPassword(staff.password);
      for (const role of ['officer', 'finance'] as const) {
        staff[role] = `${role}-two`;
        await database.db
          .insertInto('users')
          .values({ role, username: staff[role], phone: null, password_hash: passwordHash })
          .execute();
      }
    } catch (error) {
      await runCleanups();
      throw error;
    }
  }, 120_000);

  async function runCleanups() {
    // Processes first (they hold connections to the database and the bucket), then the rest.
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
  }
  afterAll(async () => {
    // Stop the processes before dropping their database, whatever happened.
    await Promise.all([a?.stop(3_000), b?.stop(3_000)].filter(Boolean));
    await runCleanups();
  }, 60_000);

  async function logIn(server: AppProcess, identifier: string, password: string): Promise<HttpBrowser> {
    const browser = new HttpBrowser();
    const response = await browser.post(server, '/api/auth/login', { identifier, password });
    expect(response.status, response.text).toBe(200);
    return browser;
  }

  /** Signs a borrower up: the code is asked for on `codeOn`, the sign-up sent to `signUpOn`. */
  async function signUp(codeOn: AppProcess, signUpOn: AppProcess) {
    const phone = nextPhone();
    const password = 'borrower-password-1';
    const browser = new HttpBrowser();
    const sent = await browser.post(codeOn, '/api/auth/signup/code', { phone });
    expect(sent.status, sent.text).toBe(200);
    const code = await outboxCode(codeOn, phone);
    const signed = await browser.post(signUpOn, '/api/auth/signup', {
      phone,
      password,
      confirmPassword: password,
      code,
      privacyNoticeVersion: DEFAULT_PRIVACY_NOTICE_VERSION,
    });
    expect(signed.status, signed.text).toBe(201);
    return { phone, password };
  }

  it('a session made on A works on B; logging out on B ends it on A', async () => {
    const { phone, password } = await signUp(a, a);
    const browser = await logIn(a, phone, password);
    expect((await browser.get(b, '/api/me')).body.user).toMatchObject({ phone, role: 'borrower' });
    expect((await browser.get(b, '/api/applications/mine')).status).toBe(200);
    // A write on B with the CSRF token A handed out.
    const quote = await browser.post(b, '/api/applications/quote', { amount: 10000, termMonths: 6 });
    expect(quote.status, quote.text).toBe(200);

    const copy = browser.clone();
    expect((await browser.post(b, '/api/auth/logout')).status).toBe(200);
    for (const server of [a, b]) {
      expect((await copy.get(server, '/api/me')).body.user).toBeNull();
      expect((await copy.get(server, '/api/applications/mine')).status).toBe(401);
    }
  });

  it('a sign-up code sent by A verifies on B; the resend wait and the login lockout hold across both', async () => {
    await signUp(a, b);

    // The resend wait: a code from A, then at once another request on B is refused; after the wait B sends.
    const phone = nextPhone();
    const browser = new HttpBrowser();
    expect((await browser.post(a, '/api/auth/signup/code', { phone })).status).toBe(200);
    const again = await browser.post(b, '/api/auth/signup/code', { phone });
    expect(again.status, again.text).toBe(429);
    expect(again.body.error.code).toBe('CODE_RESEND_TOO_SOON');
    await new Promise((resolve) => setTimeout(resolve, RESEND_SECONDS * 1000 + 200));
    expect((await browser.post(b, '/api/auth/signup/code', { phone })).status).toBe(200);

    // Five failures, three on A and two on B (neither alone reaches five), lock the account on both.
    const borrower = await signUp(b, a);
    for (const server of [a, b, a, b, a]) {
      const wrong = await new HttpBrowser().post(server, '/api/auth/login', {
        identifier: borrower.phone,
        password: 'not-the-password',
      });
      expect(wrong.status, wrong.text).toBe(401);
    }
    for (const server of [b, a]) {
      const locked = await new HttpBrowser().post(server, '/api/auth/login', {
        identifier: borrower.phone,
        password: borrower.password,
      });
      expect(locked.status, locked.text).toBe(429);
      expect(locked.body.error.code).toBe('TOO_MANY_ATTEMPTS');
    }
  });

  it('an application submitted on A: its pictures are served by B, and B’s live pending badge moves within 2 s', async () => {
    const officerOnB = await logIn(b, staff.officer, staff.password);
    const events = await openPendingEvents(b, officerOnB);
    cleanups.push(() => events.close());
    const until = async (check: () => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      return check();
    };
    expect(await until(() => events.counts.length > 0, 5_000)).toBe(true);
    const before = events.counts.at(-1)!;

    const { phone, password } = await signUp(a, a);
    const browser = await logIn(a, phone, password);
    const quote = await browser.post(a, '/api/applications/quote', { amount: 50000, termMonths: 6 });
    const [photo, signature] = await Promise.all([pngPhoto(), signaturePng()]);
    const { payload, contentType } = multipartBody(
      applicationFields(phone, {
        amount: '50000',
        termMonths: '6',
        disclosureSha256: quote.body.disclosureSha256,
      }),
      [
        { name: 'idFront', filename: 'front.png', contentType: 'image/png', data: photo },
        { name: 'idBack', filename: 'back.png', contentType: 'image/png', data: photo },
        { name: 'selfie', filename: 'selfie.png', contentType: 'image/png', data: photo },
        { name: 'signature', filename: 'signature.png', contentType: 'image/png', data: signature },
      ],
    );
    const submitted = await browser.request(a, 'POST', '/api/applications', { raw: payload, contentType });
    const submittedAt = Date.now();
    expect(submitted.status, submitted.text).toBe(201);

    // LISTEN/NOTIFY: A's commit reaches B's stream.
    expect(await until(() => events.counts.at(-1) === before + 1, 2_000), `${events.counts}`).toBe(true);
    expect(Date.now() - submittedAt).toBeLessThan(2_000);

    // The pictures went to the bucket, not to A's disk.
    expect(s3.keys().filter((key) => key.startsWith(`applications/${submitted.body.id}/`))).toHaveLength(4);
    // Shared storage: what A stored, B serves (to the officer), byte for byte what A serves (to the owner).
    const profile = await officerOnB.get(b, `/api/staff/applications/${submitted.body.id}`);
    expect(profile.status, profile.text).toBe(200);
    for (const documentId of Object.values(profile.body.documents as Record<string, string>)) {
      const fromB = await officerOnB.get(b, `/api/files/${documentId}`);
      expect(fromB.status, fromB.text).toBe(200);
      expect(fromB.headers.get('content-type')).toMatch(/^image\//);
      const fromA = await browser.get(a, `/api/files/${documentId}`);
      expect(fromA.status).toBe(200);
      expect(fromB.bytes.length).toBeGreaterThan(100);
      expect(fromB.bytes.equals(fromA.bytes)).toBe(true);
    }
    events.close();
  });

  it('200 concurrent withdrawals split across A and B on one loan never exceed the balance', async () => {
    const approvedMinor = 10_000_000;
    const { phone, password } = await signUp(a, b);
    const user = await database.db
      .selectFrom('users')
      .select('id')
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    const loanId = await seedApplication(database.db, {
      borrowerId: user.id,
      phone,
      status: 'approved',
      amountMinor: approvedMinor,
    });
    const borrower = await logIn(a, phone, password);

    /** A code for `amount` (preview on A, code on B), waiting out the resend wait of the last code. */
    const codeFor = async (amount: number) => {
      const preview = await borrower.post(a, '/api/wallet/withdrawal-preview', { amount });
      expect(preview.status, preview.text).toBe(200);
      for (let tries = 0; ; tries++) {
        const sent = await borrower.post(b, '/api/wallet/withdrawal-code', {
          amount,
          planDigest: preview.body.planDigest,
        });
        if (sent.status === 200) return outboxCode(b, phone);
        expect(sent.body.error?.code, sent.text).toBe('CODE_RESEND_TOO_SOON');
        expect(tries).toBeLessThan(RESEND_SECONDS * 2);
        await new Promise((resolve) => setTimeout(resolve, 600));
      }
    };
    /** 200 withdrawals at once, each its own request (own idempotency key), alternating A and B. */
    const race = async (amount: number, code: string) => {
      const responses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          borrower.post(i % 2 === 0 ? a : b, '/api/wallet/withdrawals', {
            amount,
            code,
            idempotencyKey: randomUUID(),
          }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      // Every loser is refused cleanly: no server error, no second payout.
      expect(
        statuses.filter((s) => s >= 500),
        responses.find((r) => r.status >= 500)?.text,
      ).toEqual([]);
      return responses.filter((r) => r.status === 201);
    };

    const first = await race(60_000, await codeFor(60_000));
    expect(first).toHaveLength(1);
    // The remainder is 40,000: one more code for all of it, raced again; then nothing is left.
    const second = await race(40_000, await codeFor(40_000));
    expect(second).toHaveLength(1);
    const more = await borrower.post(b, '/api/wallet/withdrawal-preview', { amount: 1 });
    expect(more.body.error?.code, more.text).toBe('AMOUNT_EXCEEDS_BALANCE');

    // What the back office sees (through B): requested + paid never above the approved amount.
    const finance = await logIn(b, staff.finance, staff.password);
    const list = await finance.get(b, `/api/staff/disbursements?phone=${phone}`);
    expect(list.status, list.text).toBe(200);
    const taken = (list.body.items as { amountMinor: number; status: string; applicationId: string }[])
      .filter((d) => d.applicationId === loanId && (d.status === 'requested' || d.status === 'paid'))
      .reduce((sum, d) => sum + d.amountMinor, 0);
    expect(list.body.total).toBe(2);
    expect(taken).toBe(approvedMinor);
    const profile = await finance.get(a, `/api/staff/applications/${loanId}`);
    expect(profile.body).toMatchObject({ approvedAmountMinor: approvedMinor, availableMinor: 0 });
  });

  it('SIGKILL of A under load loses no acknowledged write, and B keeps serving', async () => {
    // Sign-ups and logins (each a row: a user, a session) fired at A until it dies.
    const prepared = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const phone = nextPhone();
        expect((await new HttpBrowser().post(a, '/api/auth/signup/code', { phone })).status).toBe(200);
        return { phone, code: await outboxCode(a, phone) };
      }),
    );
    const existing = await signUp(b, b);
    const password = 'borrower-password-1';
    const signedUp: string[] = [];
    const sessions: HttpBrowser[] = [];
    let stop = false;
    let unanswered = 0;

    const signUps = prepared.map(async ({ phone, code }, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 40));
      try {
        const response = await new HttpBrowser().post(a, '/api/auth/signup', {
          phone,
          password,
          confirmPassword: password,
          code,
          privacyNoticeVersion: DEFAULT_PRIVACY_NOTICE_VERSION,
        });
        if (response.status === 201) signedUp.push(phone);
      } catch {
        // A died before answering: not acknowledged, so nothing is promised.
      }
    });
    const logins = Array.from({ length: 4 }, async () => {
      while (!stop) {
        try {
          const browser = new HttpBrowser();
          const response = await browser.post(a, '/api/auth/login', {
            identifier: existing.phone,
            password: existing.password,
          });
          if (response.status === 200) sessions.push(browser);
        } catch {
          unanswered += 1; // in flight (or refused) when A died
          return;
        }
      }
    });

    const deadline = Date.now() + 20_000;
    while (signedUp.length + sessions.length < 6 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    a.child.kill('SIGKILL');
    stop = true;
    await Promise.all([...signUps, ...logins, a.exit]);
    expect(a.child.signalCode).toBe('SIGKILL');
    expect(signedUp.length + sessions.length).toBeGreaterThanOrEqual(6);
    expect(unanswered).toBeGreaterThanOrEqual(1); // requests were in flight: A died under load

    // B is ready and serves reads and writes.
    expect((await fetch(`${b.baseUrl}/api/health/ready`)).status).toBe(200);
    for (const phone of signedUp) await logIn(b, phone, password);
    for (const session of sessions) {
      const me = await session.get(b, '/api/me');
      expect(me.status, me.text).toBe(200);
      expect(me.body.user.phone).toBe(existing.phone);
    }
    await signUp(b, b);
  });
});
