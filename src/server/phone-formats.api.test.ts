import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from './db/migrations';
import { expectError } from './test-support/api-assertions';
import { applicationFields } from './test-support/application-form';
import { type MultipartFile, multipartBody, pngPhoto, signaturePng } from './test-support/images';
import { type Agent, createTestApp, type TestApp } from './test-support/test-app';

/**
 * Every phone field reads a Philippine mobile number written any common way into its one stored form,
 * "09171234567" (src/domain/phone.ts, issue #32), and refuses landlines and other countries' numbers with
 * the SPEC §5 message: sign-in and sign-up (signup.api.test.ts), the forgotten password, step 1 and the
 * reference contact of an application, staff users, and the staff searches.
 */
const PHONE_INVALID = 'Phone number must be at least 10 digits and contain only numbers';

let t: TestApp;
let admin: Agent;
let officer: Agent;
let picture: Buffer;
let signature: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInStaff('admin');
  officer = await t.signInStaff('officer');
  [picture, signature] = await Promise.all([pngPhoto(), signaturePng()]);
});
afterAll(() => t?.close());

/** "09171234567" written "+63 917 123 4567". */
const international = (n: string) => `+63 ${n.slice(1, 4)} ${n.slice(4, 7)} ${n.slice(7)}`;
/** "09171234567" written "(0917) 123-4567". */
const bracketed = (n: string) => `(${n.slice(0, 4)}) ${n.slice(4, 7)}-${n.slice(7)}`;

describe('forgotten password', () => {
  it('sends the code to the account whichever way its number is written, and resets it', async () => {
    const b = await t.signUpBorrower();
    const sent = await t.agent().post('/api/auth/password-reset/code', { phone: international(b.phone) });
    expect(sent.status, sent.text).toBe(200);
    const code = await t.latestCode(b.phone);
    const reset = await t.agent().post('/api/auth/password-reset', {
      phone: bracketed(b.phone),
      code,
      password: 'kalamansi tree 27',
      confirmPassword: 'kalamansi tree 27',
    });
    expect(reset.status, reset.text).toBe(200);
    const login = await t
      .agent()
      .post('/api/auth/login', { identifier: `63${b.phone.slice(1)}`, password: 'kalamansi tree 27' });
    expect(login.status).toBe(200);
  });

  it('refuses a landline with the SPEC message', async () => {
    expectError(
      await t.agent().post('/api/auth/password-reset/code', { phone: '(02) 8123 4567' }),
      400,
      'PHONE_INVALID',
      PHONE_INVALID,
    );
  });
});

describe('an application', () => {
  /** The complete application with `fields` (the phone and the reference contact's) as typed. */
  async function submit(agent: Agent, { phone, ...fields }: { phone: string } & Record<string, string>) {
    const quote = await agent.post('/api/applications/quote', { amount: 100000, termMonths: 12 });
    expect(quote.status, quote.text).toBe(200);
    const files: MultipartFile[] = ['idFront', 'idBack', 'selfie'].map((name) => ({
      name,
      filename: `${name}.png`,
      contentType: 'image/png',
      data: picture,
    }));
    files.push({ name: 'signature', filename: 'signature.png', contentType: 'image/png', data: signature });
    const { payload, contentType } = multipartBody(
      applicationFields(phone, { disclosureSha256: quote.body.disclosureSha256, ...fields }),
      files,
    );
    return agent.request('POST', '/api/applications', {
      raw: payload,
      headers: { 'content-type': contentType },
    });
  }

  it('keeps the phone and the reference contact phone in the one form, however they were typed', async () => {
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    const contact = t.nextPhone();
    const response = await submit(agent, { phone: international(b.phone), contactPhone: bracketed(contact) });
    expect(response.status, response.text).toBe(201);
    const row = await t.db
      .selectFrom('applications')
      .select(['phone', 'contact_phone'])
      .where('borrower_id', '=', b.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ phone: b.phone, contact_phone: contact });

    // Staff find it by the number written any way, or a beginning of it written with the country code.
    for (const phone of [international(b.phone), bracketed(b.phone), `+63 ${b.phone.slice(1, 7)}`]) {
      const list = await officer.get(`/api/staff/applications/pending?phone=${encodeURIComponent(phone)}`);
      expect(list.status, list.text).toBe(200);
      expect(list.body.items.map((i: { phone: string }) => i.phone)).toContain(b.phone);
    }
  });

  // Step 2's SPEC §5 messages: "{Field} must be digits only" when it holds more than a number's characters
  // can explain, else the phone message (a landline, a number abroad).
  it.each([
    ['a landline reference contact', { contactPhone: '0322345678' }, 'contactPhone', 'PHONE_INVALID'],
    ['a reference contact abroad', { contactPhone: '+1 415 555 0100' }, 'contactPhone', 'FIELD_DIGITS_ONLY'],
    [
      'a landline reference contact, bracketed',
      { contactPhone: '(032) 234 5678' },
      'contactPhone',
      'FIELD_DIGITS_ONLY',
    ],
    ['a landline as the phone', { phone: '0281234567' }, 'phone', 'PHONE_INVALID'],
  ])('refuses %s, storing nothing', async (_name, fields, field, code) => {
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    const response = await submit(agent, { phone: b.phone, contactPhone: t.nextPhone(), ...fields });
    expect(response.status).toBe(400);
    expect(response.body.error.fields[field]).toMatchObject({ code });
    const rows = await t.db
      .selectFrom('applications')
      .select('id')
      .where('borrower_id', '=', b.user.id)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('staff users', () => {
  it('stores a staff phone in the one form, on adding and on updating, and finds it written any way', async () => {
    const phone = t.nextPhone();
    const created = await admin.post('/api/admin/users', {
      username: t.nextUsername('teller'),
      password: 'first pass 1',
      phone: international(phone),
      role: 'officer',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.phone).toBe(phone);

    const next = t.nextPhone();
    const updated = await admin.post(`/api/admin/users/${created.body.id}`, {
      phone: bracketed(next),
      password: 'another temp 1',
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.phone).toBe(next);

    const list = await admin.get(`/api/admin/users?phone=${encodeURIComponent(international(next))}`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((u: { id: string }) => u.id)).toEqual([created.body.id]);
  });

  it.each([
    ['a landline', '(02) 8123 4567'],
    ['a number abroad', '+44 7911 123456'],
  ])('refuses %s', async (_name, phone) => {
    const response = await admin.post('/api/admin/users', {
      username: t.nextUsername('teller'),
      password: 'first pass 1',
      phone,
      role: 'officer',
    });
    expectError(response, 400, 'PHONE_INVALID', PHONE_INVALID);
  });

  it('a search with letters is still refused', async () => {
    expectError(await admin.get('/api/admin/users?phone=0917abc'), 400, 'FIELD_DIGITS_ONLY');
  });
});

describe('accounts stored before the one form (migration 028)', () => {
  it('rewrites 63…, 630… and 9… to 09… unless that is taken, and leaves other numbers alone', async () => {
    const n = () => t.nextPhone().slice(1); // 917…, ten digits
    const [a, b, c, d, e] = [n(), n(), n(), n(), n()];
    const legacy = {
      plain: `63${a}`,
      trunk: `630${b}`,
      national: c,
      taken: `63${d}`,
      twiceA: `63${e}`,
      twiceB: e,
      landline: '0281234567',
      abroad: '14155550100',
    };
    const ids: Record<string, string> = {};
    const passwords: Record<string, string> = {};
    for (const [name, phone] of Object.entries(legacy)) {
      const made = await t.createUser({ role: 'borrower', phone });
      ids[name] = made.user.id;
      passwords[name] = made.password;
    }
    const owner = await t.createUser({ role: 'borrower', phone: `0${d}` });
    await migrations['028-phone-one-form']!.up(t.db as never);

    const phoneOf = async (id: string) =>
      (await t.db.selectFrom('users').select('phone').where('id', '=', id).executeTakeFirstOrThrow()).phone;
    expect(await phoneOf(ids.plain!)).toBe(`0${a}`);
    expect(await phoneOf(ids.trunk!)).toBe(`0${b}`);
    expect(await phoneOf(ids.national!)).toBe(`0${c}`);
    // Taken by another account, or wanted by two: left as stored.
    expect(await phoneOf(ids.taken!)).toBe(`63${d}`);
    expect(await phoneOf(owner.user.id)).toBe(`0${d}`);
    expect(await phoneOf(ids.twiceA!)).toBe(`63${e}`);
    expect(await phoneOf(ids.twiceB!)).toBe(e);
    expect(await phoneOf(ids.landline!)).toBe('0281234567');
    expect(await phoneOf(ids.abroad!)).toBe('14155550100');

    // A rewritten account signs in with its number written as it used to be stored, or any other way.
    for (const identifier of [legacy.plain, `0${a}`, international(`0${a}`)]) {
      const login = await t.agent().post('/api/auth/login', { identifier, password: passwords.plain });
      expect(login.status, identifier).toBe(200);
    }
    // A number that is no mobile number still signs in as stored.
    const abroad = await t
      .agent()
      .post('/api/auth/login', { identifier: legacy.abroad, password: passwords.abroad });
    expect(abroad.status).toBe(200);
  });
});
