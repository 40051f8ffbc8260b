import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { addMonthsClamped } from '../../../domain/loan/calendar';
import { runAnonymisation } from '../../jobs/anonymise-closed-accounts';
import { queueBorrowerMessage } from '../../notify/sms-outbox';
import { expectError } from '../../test-support/api-assertions';
import { nameStartsAndTruth } from '../../test-support/name-starts';
import { loanNumberOf, seedApplication, seedPaidDisbursement, storedStatus } from '../../test-support/seed';
import {
  type Agent,
  createTestApp,
  shiftedClock,
  type TestApp,
  testConsent,
} from '../../test-support/test-app';
import { unzip } from '../../test-support/unzip';
import { exportFiles, formFieldsOfApplications } from './export-readme/fields';

/** Privacy notice and consent, the borrower's own data, account closure and anonymisation (issue #14). */
let t: TestApp;
const clock = shiftedClock();
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = await t.signInStaff('admin');
});
afterAll(() => t.close());

const PASSWORD = 'borrower-password-1';

/** A borrower with an application whose four documents really are in storage, each with its own bytes. */
async function borrowerWithData(status: 'closed' | 'approved' | 'pending' = 'closed') {
  const b = await t.signUpBorrower();
  const agent = await t.loginAs(b.phone, b.password);
  const loanId = await seedApplication(t.db, {
    borrowerId: b.user.id,
    phone: b.phone,
    fullName: `Name of ${b.phone}`,
    status,
  });
  const documents = await t.db
    .selectFrom('documents')
    .select(['id', 'kind', 'storage_key'])
    .where('application_id', '=', loanId)
    .execute();
  const bytes = new Map<string, Buffer>();
  for (const document of documents) {
    const data = Buffer.from(`picture ${document.kind} of ${b.phone} ${document.id}`);
    await t.deps.storage.put(document.storage_key, data);
    bytes.set(document.kind, data);
  }
  const loanNumber = await loanNumberOf(t.db, loanId);
  await t.db
    .insertInto('borrower_events')
    .values({ borrower_id: b.user.id, application_id: loanId, kind: 'message', message: `Hello ${b.phone}` })
    .execute();
  return { ...b, agent, loanId, loanNumber, documents, bytes };
}

describe('privacy notice and consent at sign-up', () => {
  it('serves the notice in force to anyone, in every language, with the DPO contact written in', async () => {
    const response = await t.api.get('/api/privacy/notice');
    expect(response.status).toBe(200);
    const { version, dpoContact, retentionYears, texts } = response.body;
    expect(version).toBe(t.deps.config.privacy.noticeVersion);
    expect(retentionYears).toBe(5);
    expect(Object.keys(texts).sort()).toEqual(['en', 'fil', 'km', 'zh']);
    for (const lang of ['en', 'zh', 'km', 'fil']) {
      expect(texts[lang].sections.contact.body).toContain(dpoContact);
      expect(texts[lang].sections.retention.body).toContain('5');
      expect(JSON.stringify(texts[lang])).not.toMatch(/\{dpoContact\}|\{retentionYears\}/);
    }
  });

  async function phoneWithCode() {
    const phone = t.nextPhone();
    expect((await t.api.post('/api/auth/signup/code', { phone })).status).toBe(200);
    return { phone, code: await t.latestCode(phone) };
  }
  const body = (phone: string, code: string) => ({
    phone,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    code,
  });
  const accountOf = (phone: string) =>
    t.db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst();

  it('refuses a sign-up without consent, or with consent to another version, and creates nothing', async () => {
    const { phone, code } = await phoneWithCode();
    const without = await t.agent().post('/api/auth/signup', body(phone, code));
    expectError(without, 400, 'PRIVACY_CONSENT_REQUIRED');
    expect(without.body.error.fields.privacyNoticeVersion.code).toBe('PRIVACY_CONSENT_REQUIRED');
    const blank = await t
      .agent()
      .post('/api/auth/signup', { ...body(phone, code), privacyNoticeVersion: ' ' });
    expectError(blank, 400, 'PRIVACY_CONSENT_REQUIRED');
    const old = await t
      .agent()
      .post('/api/auth/signup', { ...body(phone, code), privacyNoticeVersion: '2020-01-01' });
    expectError(old, 409, 'PRIVACY_NOTICE_OUTDATED');
    expect(await accountOf(phone)).toBeUndefined();
    expect(await t.db.selectFrom('consents').selectAll().execute()).not.toContainEqual(
      expect.objectContaining({ notice_version: '2020-01-01' }),
    );
    // The code was not spent: agreeing to the notice in force signs up.
    const ok = await t.agent().post('/api/auth/signup', { ...body(phone, code), ...testConsent(t.deps) });
    expect(ok.status, ok.text).toBe(201);
  });

  it('records the consent: notice version, time, IP address and browser', async () => {
    const { phone, code } = await phoneWithCode();
    const browser = t.agent();
    const before = Date.now();
    const response = await browser.post(
      '/api/auth/signup',
      { ...body(phone, code), ...testConsent(t.deps) },
      { headers: { 'user-agent': 'Consent-Test-Browser/1.0' } },
    );
    expect(response.status, response.text).toBe(201);
    const user = await accountOf(phone);
    const consents = await t.db.selectFrom('consents').selectAll().where('user_id', '=', user!.id).execute();
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({
      notice_version: t.deps.config.privacy.noticeVersion,
      context: 'signup',
      ip: browser.ip,
      user_agent: 'Consent-Test-Browser/1.0',
    });
    expect(consents[0]!.consented_at.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    const signedIn = await t.loginAs(phone, PASSWORD);
    expect((await signedIn.get('/api/me')).body.user.privacyConsentRequired).toBe(false);
  });
});

describe('a new version of the notice', () => {
  it('asks the borrower again before anything else, keeps the history, and never asks staff', async () => {
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    expect((await agent.get('/api/wallet')).status).toBe(200);
    const first = t.deps.config.privacy.noticeVersion;
    const next = `${first}-b`;
    t.deps.config.privacy = { ...t.deps.config.privacy, noticeVersion: next };
    try {
      const me = await agent.get('/api/me');
      expect(me.body.user.privacyConsentRequired).toBe(true);
      for (const path of [
        '/api/wallet',
        '/api/account',
        '/api/applications/mine',
        '/api/account/export.zip',
      ]) {
        expectError(await agent.get(path), 403, 'PRIVACY_RECONSENT_REQUIRED');
      }
      expectError(await agent.post('/api/account/avatar', { avatar: 3 }), 403, 'PRIVACY_RECONSENT_REQUIRED');
      // Staff process data for the lender; they are not asked.
      expect((await admin.get('/api/staff/dashboard')).status).toBe(200);
      // Agreeing to what was shown before is not agreeing to the new notice.
      expectError(
        await agent.post('/api/account/consent', { privacyNoticeVersion: first }),
        409,
        'PRIVACY_NOTICE_OUTDATED',
      );
      const agreed = await agent.post(
        '/api/account/consent',
        { privacyNoticeVersion: next },
        { headers: { 'user-agent': 'Reconsent/2' } },
      );
      expect(agreed.status, agreed.text).toBe(200);
      expect(agreed.body.user.privacyConsentRequired).toBe(false);
      expect((await agent.get('/api/wallet')).status).toBe(200);
      // Agreeing twice records it once.
      expect((await agent.post('/api/account/consent', { privacyNoticeVersion: next })).status).toBe(200);
      const history = await agent.get('/api/account/consents');
      expect(
        history.body.items.map((c: { version: string; context: string; current: boolean }) => c),
      ).toEqual([
        expect.objectContaining({ version: next, context: 'reconsent', current: true }),
        expect.objectContaining({ version: first, context: 'signup', current: false }),
      ]);
      const rows = await t.db
        .selectFrom('consents')
        .select(['ip', 'user_agent'])
        .where('user_id', '=', b.user.id)
        .where('notice_version', '=', next)
        .execute();
      expect(rows).toEqual([{ ip: agent.ip, user_agent: 'Reconsent/2' }]);
      // Logging out still works for someone who has not agreed.
    } finally {
      t.deps.config.privacy = { ...t.deps.config.privacy, noticeVersion: first };
    }
  });

  it('lets a borrower who has not agreed log out', async () => {
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    await t.db
      .updateTable('users')
      .set({ privacy_notice_version: null })
      .where('id', '=', b.user.id)
      .execute();
    expect((await agent.get('/api/me')).body.user.privacyConsentRequired).toBe(true);
    expect((await agent.post('/api/auth/logout')).status).toBe(200);
    expect((await agent.get('/api/me')).body.user).toBeNull();
  });
});

describe("the borrower's own data", () => {
  it("lists only the borrower's own documents; another borrower's picture is not found", async () => {
    const a = await borrowerWithData();
    const b = await borrowerWithData();
    const mine = await a.agent.get('/api/account/documents');
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((d: { id: string }) => d.id).sort()).toEqual(
      a.documents.map((d) => d.id).sort(),
    );
    expect(mine.body.items.every((d: { loanNumber: string }) => d.loanNumber === a.loanNumber)).toBe(true);
    const own = await a.agent.get(`/api/files/${a.documents[0]!.id}`);
    expect(own.status).toBe(200);
    expect(own.rawPayload.equals(a.bytes.get(a.documents[0]!.kind)!)).toBe(true);
    expectError(await a.agent.get(`/api/files/${b.documents[0]!.id}`), 404, 'NOT_FOUND');
  });

  it("exports exactly the borrower's own data and documents, nobody else's", async () => {
    const a = await borrowerWithData('approved');
    const b = await borrowerWithData('approved');
    for (const x of [a, b]) {
      await seedPaidDisbursement(t.db, x.loanId, { reference: `PAYOUT-${x.phone}` }, t.deps);
      await t.db
        .insertInto('repayments')
        .values({
          application_id: x.loanId,
          amount: 50_000,
          received_on: todayIn(t.deps.config.timeZone),
          channel: 'gcash',
          reference: `REPAY-${x.phone}`,
          source: 'webhook',
          recorded_by: null,
        })
        .execute();
    }
    const response = await a.agent.get('/api/account/export.zip');
    expect(response.status, response.text.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(String(response.headers['content-disposition'])).toContain('attachment');
    const files = await unzip(response.rawPayload);
    const expectedDocs = a.documents.map(
      (d) => `documents/${a.loanNumber}-${d.kind}.${d.kind === 'signature' ? 'png' : 'jpg'}`,
    );
    expect([...files.keys()].sort()).toEqual(
      [
        'README.txt',
        'profile.json',
        'applications.json',
        'disclosures.json',
        'disbursements.json',
        'repayments.json',
        'messages.json',
        'consents.json',
        'documents.json',
        ...expectedDocs,
      ].sort(),
    );
    const read = (name: string) => JSON.parse(files.get(name)!.toString('utf8'));
    expect(read('profile.json').user).toMatchObject({ id: a.user.id, phone: a.phone, role: 'borrower' });
    expect(read('profile.json').user).not.toHaveProperty('password_hash');
    expect(read('applications.json')).toEqual([
      expect.objectContaining({ id: a.loanId, borrower_id: a.user.id, full_name: `Name of ${a.phone}` }),
    ]);
    expect(read('disclosures.json')).toEqual([expect.objectContaining({ loan_number: a.loanNumber })]);
    expect(read('disbursements.json')).toEqual([
      expect.objectContaining({
        application_id: a.loanId,
        reference: `PAYOUT-${a.phone}`,
        amount: 10_000_000,
      }),
    ]);
    expect(read('repayments.json')).toEqual([
      expect.objectContaining({ application_id: a.loanId, reference: `REPAY-${a.phone}`, amount: 50_000 }),
    ]);
    expect(read('messages.json').events).toEqual([expect.objectContaining({ message: `Hello ${a.phone}` })]);
    expect(read('consents.json')).toEqual([
      expect.objectContaining({ notice_version: t.deps.config.privacy.noticeVersion, context: 'signup' }),
    ]);
    for (const document of a.documents) {
      const name = `documents/${a.loanNumber}-${document.kind}.${document.kind === 'signature' ? 'png' : 'jpg'}`;
      expect(files.get(name)!.equals(a.bytes.get(document.kind)!), name).toBe(true);
    }
    // Nothing of the other borrower anywhere in the archive.
    const everything = Buffer.concat([...files.values()]).toString('utf8');
    for (const trace of [b.user.id, b.phone, b.loanId, b.loanNumber, ...b.documents.map((d) => d.id)]) {
      expect(everything, trace).not.toContain(trace);
    }
  });
});

describe('the export holds every SMS sent to the borrower', () => {
  it("a complaint's message, which belongs to no loan, as well as the loan's", async () => {
    const a = await borrowerWithData('approved');
    await t.db.transaction().execute(async (trx) => {
      await queueBorrowerMessage(
        trx,
        t.deps,
        { borrowerId: a.user.id, applicationId: null },
        { kind: 'complaint_reply', reference: `CMP-${a.phone}` },
      );
    });
    const files = await unzip((await a.agent.get('/api/account/export.zip')).rawPayload);
    const { reminders } = JSON.parse(files.get('messages.json')!.toString('utf8')) as {
      reminders: { kind: string; application_id: string | null; text: string }[];
    };
    expect(reminders).toContainEqual(
      expect.objectContaining({ kind: 'complaint_reply', application_id: null }),
    );
    expect(reminders.find((r) => r.kind === 'complaint_reply')!.text).toContain(`CMP-${a.phone}`);
  });
});

describe("the export's README (issue #36)", () => {
  it("is in the borrower's language, names every file and explains every field, codes as words", async () => {
    const a = await borrowerWithData('approved');
    await seedPaidDisbursement(t.db, a.loanId, { reference: `PAYOUT-${a.phone}` }, t.deps);
    await t.db
      .insertInto('repayments')
      .values({
        application_id: a.loanId,
        amount: 50_000,
        received_on: todayIn(t.deps.config.timeZone),
        channel: 'gcash',
        reference: `REPAY-${a.phone}`,
        source: 'webhook',
        recorded_by: null,
      })
      .execute();
    expect((await a.agent.post('/api/account/language', { language: 'km' })).status).toBe(200);
    const files = await unzip((await a.agent.get('/api/account/export.zip')).rawPayload);
    const readme = files.get('README.txt')!.toString('utf8');

    // Khmer: its title and explanations, and no English one.
    expect(readme).toMatch(/^ទិន្នន័យរបស់អ្នកពី Hiram/);
    expect(readme).toContain('លេខទូរស័ព្ទរបស់អ្នក');
    expect(readme).not.toContain('Your data from Hiram');
    expect(readme).not.toContain('Your mobile number');
    const khmerLetters = readme.match(/[\u1780-\u17ff]/g)?.length ?? 0;
    const latinWords = readme.match(/[A-Za-z]{4,}/g)?.length ?? 0;
    expect(khmerLetters).toBeGreaterThan(latinWords * 10);

    // Every file in the archive is named, each document by its folder.
    for (const name of files.keys()) {
      if (name === 'README.txt') continue;
      expect(readme, name).toContain(name.startsWith('documents/') ? 'documents/' : name);
    }

    // Every field of every row is explained: a new column fails here until the README says what it is.
    const read = (name: string) => JSON.parse(files.get(name)!.toString('utf8'));
    const explained = (file: keyof typeof exportFiles) =>
      new Set<string>([
        ...exportFiles[file],
        ...(file === 'applications.json' ? Object.keys(formFieldsOfApplications) : []),
      ]);
    const keysOf = (rows: object[], prefix = '') =>
      [...new Set(rows.flatMap((row) => Object.keys(row)))].map((k) => prefix + k);
    const profile = read('profile.json');
    const messages = read('messages.json');
    const seen: [keyof typeof exportFiles, string[]][] = [
      [
        'profile.json',
        [...keysOf([{ exported_at: profile.exported_at }]), ...keysOf([profile.user], 'user.')],
      ],
      ['applications.json', keysOf(read('applications.json'))],
      ['disclosures.json', keysOf(read('disclosures.json'))],
      ['disbursements.json', keysOf(read('disbursements.json'))],
      ['repayments.json', keysOf(read('repayments.json'))],
      ['messages.json', [...keysOf(messages.events, 'events.'), ...keysOf(messages.reminders, 'reminders.')]],
      ['consents.json', keysOf(read('consents.json'))],
      ['documents.json', keysOf(read('documents.json'))],
    ];
    for (const [file, keys] of seen) {
      expect(keys.length, file).toBeGreaterThan(0);
      for (const key of keys) {
        expect(explained(file).has(key), `${file} ${key}`).toBe(true);
        expect(readme, `${file} ${key}`).toContain(`  ${key}: `);
      }
    }

    // Codes are written as words: the loan's status, the event's kind, the document's kind, the channel.
    expect(readme).toContain('approved = បានអនុម័ត');
    expect(readme).toContain('message = សារពីបុគ្គលិករបស់យើង');
    expect(readme).toContain('id_front = រូបថតអត្តសញ្ញាណប័ណ្ណខាងមុខ');
    expect(readme).toContain('gcash = ');
    expect(readme).toContain('km = ខ្មែរ');
  });

  it('is in English for a borrower who never chose a language', async () => {
    const a = await borrowerWithData('pending');
    const files = await unzip((await a.agent.get('/api/account/export.zip')).rawPayload);
    const readme = files.get('README.txt')!.toString('utf8');
    expect(readme).toMatch(/^Your data from Hiram/);
    expect(readme).toContain('pending = Pending');
  });
});

describe('closing the account', () => {
  it('is refused while a loan is running, with the date of its last payment', async () => {
    const a = await borrowerWithData('approved');
    await seedPaidDisbursement(t.db, a.loanId, {}, t.deps);
    const { unpaid_instalments } = await t.db
      .selectFrom('applications')
      .select('unpaid_instalments')
      .where('id', '=', a.loanId)
      .executeTakeFirstOrThrow();
    const lastDue = unpaid_instalments.at(-1)![0];
    const response = await a.agent.post('/api/account/close', { password: PASSWORD });
    expectError(response, 409, 'ACCOUNT_CLOSURE_LOAN_RUNNING');
    expect(response.body.error.params).toEqual({ loanNumber: a.loanNumber, date: lastDue });
    expect(response.body.error.message).toContain(lastDue);
    expect((await a.agent.get('/api/account')).status).toBe(200);
    expect(await storedStatus(t.db, 'users', a.user.id)).toBe('active');
    expect(
      await t.db.selectFrom('account_closures').selectAll().where('user_id', '=', a.user.id).execute(),
    ).toEqual([]);
  });

  it('is refused while an application awaits a decision, or an approved loan is not paid out', async () => {
    const pending = await borrowerWithData('pending');
    expectError(
      await pending.agent.post('/api/account/close', { password: PASSWORD }),
      409,
      'ACCOUNT_CLOSURE_APPLICATION_OPEN',
    );
    const approved = await borrowerWithData('approved');
    expectError(
      await approved.agent.post('/api/account/close', { password: PASSWORD }),
      409,
      'ACCOUNT_CLOSURE_LOAN_OPEN',
    );
  });

  it('asks for the password', async () => {
    const a = await borrowerWithData();
    expectError(
      await a.agent.post('/api/account/close', { password: 'wrong one' }),
      400,
      'CURRENT_PASSWORD_WRONG',
    );
    expect((await a.agent.get('/api/account')).status).toBe(200);
  });

  it('is honoured at once when nothing is owed; staff see it; anonymised after the retention period, once', async () => {
    const a = await borrowerWithData('closed');
    const other = await borrowerWithData('closed');
    await seedPaidDisbursement(t.db, a.loanId, { reference: 'KEEP-ME' });
    const money = () =>
      t.db
        .selectFrom('disbursements')
        .select(['id', 'amount', 'status', 'reference'])
        .where('application_id', '=', a.loanId)
        .execute();
    const moneyBefore = await money();
    const second = await t.loginAs(a.phone, PASSWORD);

    const closed = await a.agent.post('/api/account/close', { password: PASSWORD });
    expect(closed.status, closed.text).toBe(200);
    const today = todayIn(t.deps.config.timeZone, clock.now());
    expect(closed.body).toEqual({ ok: true, anonymiseOn: addMonthsClamped(today, 60) });
    // Every session ended, the account cannot log in.
    expect((await a.agent.get('/api/me')).body.user).toBeNull();
    expect((await second.get('/api/me')).body.user).toBeNull();
    expectError(
      await t.agent().post('/api/auth/login', { identifier: a.phone, password: PASSWORD }),
      403,
      'ACCOUNT_DEACTIVATED',
    );
    const audit = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', a.user.id)
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({ action: 'user.close_account', actor_id: a.user.id, actor_role: 'borrower' }),
    ]);

    // Staff see the request (officers read-only, admins); finance does not.
    const list = await admin.get(`/api/staff/account-closures?phone=${a.phone}`);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({
        userId: a.user.id,
        phone: a.phone,
        fullName: `Name of ${a.phone}`,
        anonymisedAt: null,
      }),
    ]);
    const officer = await t.createUser({ role: 'officer' });
    expect(
      (await (await t.loginAs(officer.user.username!, officer.password)).get('/api/staff/account-closures'))
        .status,
    ).toBe(200);
    const finance = await t.createUser({ role: 'finance' });
    expectError(
      await (await t.loginAs(finance.user.username!, finance.password)).get('/api/staff/account-closures'),
      403,
      'FORBIDDEN',
    );

    // The name is searchable until the account is anonymised (migration 048's word starts and words).
    const searchable = async () => {
      const { stored } = await nameStartsAndTruth(t.db);
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from name_words where word = ${a.phone}`.execute(t.db);
      return { start: stored.some((s) => s.start === `name of ${a.phone}`), word: rows[0]!.n > 0 };
    };
    expect(await searchable()).toEqual({ start: true, word: true });
    // Before the retention period ends, nothing happens.
    expect(await runAnonymisation(t.deps)).toEqual({ anonymised: 0 });
    clock.days = 5 * 366 + 1;
    try {
      expect(await runAnonymisation(t.deps)).toEqual({ anonymised: 1 });
      expect(await runAnonymisation(t.deps)).toEqual({ anonymised: 0 });
    } finally {
      clock.days = 0;
    }
    const user = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', a.user.id)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ phone: null, username: null, status: 'deactivated' });
    expect(user.anonymised_at).toBeInstanceOf(Date);
    const loan = await t.db
      .selectFrom('applications')
      .selectAll()
      .where('id', '=', a.loanId)
      .executeTakeFirstOrThrow();
    expect(loan).toMatchObject({
      full_name: '',
      id_number: '',
      address: '',
      email: null,
      contact_name: '',
      amount: 10_000_000,
      status: 'closed',
      loan_number: a.loanNumber,
    });
    expect(loan.phone).not.toBe(a.phone);
    // Nor does its name stay behind among the starts and words a search reads (its own word, the phone here).
    expect(await searchable()).toEqual({ start: false, word: false });
    const starts = await nameStartsAndTruth(t.db);
    expect(starts.stored).toEqual(starts.truth);
    expect(starts.wordsMissing).toEqual([]);
    // Money records kept as they were (only the payout account's details are gone).
    expect(await money()).toEqual(moneyBefore);
    // Documents deleted from storage, the rows marked erased.
    for (const document of a.documents) expect(await t.deps.storage.exists(document.storage_key)).toBe(false);
    expect((await a.agent.get('/api/me')).body.user).toBeNull();
    const erased = await t.db
      .selectFrom('documents')
      .select('erased_at')
      .where('owner_id', '=', a.user.id)
      .execute();
    expect(erased.every((d) => d.erased_at instanceof Date)).toBe(true);
    const consents = await t.db
      .selectFrom('consents')
      .select(['ip', 'user_agent'])
      .where('user_id', '=', a.user.id)
      .execute();
    expect(consents).toEqual([{ ip: null, user_agent: null }]);
    const events = await t.db
      .selectFrom('borrower_events')
      .select('message')
      .where('borrower_id', '=', a.user.id)
      .execute();
    expect(events.every((e) => e.message === null)).toBe(true);
    // Audited once, by the system.
    const anonymisations = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', a.user.id)
      .where('action', '=', 'user.anonymise')
      .execute();
    expect(anonymisations).toEqual([expect.objectContaining({ actor_role: 'system', actor_id: null })]);
    // The other borrower is untouched.
    for (const document of other.documents)
      expect(await t.deps.storage.exists(document.storage_key)).toBe(true);
    const untouched = await t.db
      .selectFrom('users')
      .select('phone')
      .where('id', '=', other.user.id)
      .executeTakeFirstOrThrow();
    expect(untouched.phone).toBe(other.phone);
    const listed = await admin.get('/api/staff/account-closures');
    expect(listed.body.items).toContainEqual(
      expect.objectContaining({
        userId: a.user.id,
        phone: null,
        fullName: null,
        anonymisedAt: expect.any(String),
      }),
    );
  });

  it('two runs at once anonymise each due account once', async () => {
    const closing = [await borrowerWithData('closed'), await borrowerWithData('closed')];
    for (const b of closing)
      expect((await b.agent.post('/api/account/close', { password: PASSWORD })).status).toBe(200);
    clock.days = 5 * 366 + 1;
    try {
      const runs = await Promise.all([runAnonymisation(t.deps), runAnonymisation(t.deps)]);
      expect(runs[0]!.anonymised + runs[1]!.anonymised).toBe(2);
    } finally {
      clock.days = 0;
    }
    const audited = await t.db
      .selectFrom('audit_events')
      .select('target_id')
      .where('action', '=', 'user.anonymise')
      .where(
        'target_id',
        'in',
        closing.map((b) => b.user.id),
      )
      .execute();
    expect(audited.map((a) => a.target_id).sort()).toEqual(closing.map((b) => b.user.id).sort());
  });

  it('an admin can still delete a borrower who only signed up (the consent goes with the account)', async () => {
    const b = await t.signUpBorrower();
    const response = await admin.request('DELETE', `/api/admin/users/${b.user.id}`);
    expect(response.status, response.text).toBe(200);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', b.user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('consents').select('id').where('user_id', '=', b.user.id).execute()).toEqual(
      [],
    );
  });
});
