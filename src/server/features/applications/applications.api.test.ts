import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test-support/api-assertions';
import { applicationFields } from '../../test-support/application-form';
import { exifTags, identifyingTags } from '../../test-support/exiftool';
import {
  blankSignaturePng,
  jpegWithGps,
  type MultipartFile,
  multipartBody,
  pdfBytes,
  pixelFloodPng,
  pngPhoto,
  signaturePng,
  svgBytes,
  webpPhoto,
} from '../../test-support/images';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

let t: TestApp;
let photo: Buffer;
let png: Buffer;
let webp: Buffer;
let signature: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  [photo, png, webp, signature] = await Promise.all([jpegWithGps(), pngPhoto(), webpPhoto(), signaturePng()]);
});
afterAll(() => t.close());

async function newBorrower(): Promise<{ agent: Agent; phone: string; userId: string }> {
  const { phone, password, user } = await t.signUpBorrower();
  return { agent: await t.loginAs(phone, password), phone, userId: user.id };
}

const validFields = applicationFields;

function validFiles(overrides: Partial<Record<string, MultipartFile | null>> = {}): MultipartFile[] {
  const files: Record<string, MultipartFile | null> = {
    idFront: { name: 'idFront', filename: 'front.jpg', contentType: 'image/jpeg', data: photo },
    idBack: { name: 'idBack', filename: 'back.png', contentType: 'image/png', data: png },
    selfie: { name: 'selfie', filename: 'selfie.webp', contentType: 'image/webp', data: webp },
    signature: { name: 'signature', filename: 'signature.png', contentType: 'image/png', data: signature },
    ...overrides,
  };
  return Object.values(files).filter((f): f is MultipartFile => f !== null);
}

async function quote(agent: Agent, amount = 100000, termMonths = 12): Promise<string> {
  const response = await agent.post('/api/applications/quote', { amount, termMonths });
  expect(response.status).toBe(200);
  return response.body.disclosureSha256;
}

async function submit(agent: Agent, fields: Record<string, string>, files: MultipartFile[]) {
  const { payload, contentType } = multipartBody(fields, files);
  return agent.request('POST', '/api/applications', {
    raw: payload,
    headers: { 'content-type': contentType },
  });
}

async function countRows(borrowerId: string) {
  const apps = await t.db
    .selectFrom('applications')
    .select('id')
    .where('borrower_id', '=', borrowerId)
    .execute();
  const docs = await t.db.selectFrom('documents').select('id').where('owner_id', '=', borrowerId).execute();
  return { apps: apps.length, docs: docs.length };
}

function storedFiles(): string[] {
  const root = join(t.deps.config.dataDir, 'files', 'applications');
  try {
    return readdirSync(root, { recursive: true }).map(String);
  } catch {
    return [];
  }
}

describe('quote', () => {
  it('discloses every figure for the amount and term, computed by the server', async () => {
    const { agent } = await newBorrower();
    const response = await agent.post('/api/applications/quote', { amount: 100000, termMonths: 12 });
    expect(response.status).toBe(200);
    const d = response.body.disclosure;
    expect(d.amountMinor).toBe(10_000_000);
    expect(d.monthlyPaymentMinor).toBe(945_596);
    expect(d.totalRepayableMinor).toBe(11_347_153);
    expect(d.totalInterestMinor).toBe(1_347_153);
    expect(d.monthlyRate).toBe('0.02');
    expect(d.apr).toBe('0.24');
    expect(d.schedule).toHaveLength(12);
    expect(response.body.disclosureSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    [{ amount: 5000, termMonths: 6 }, 'LOAN_AMOUNT_OUT_OF_RANGE'],
    [{ amount: 15000, termMonths: 6 }, 'LOAN_AMOUNT_OUT_OF_RANGE'],
    [{ amount: 310000, termMonths: 6 }, 'LOAN_AMOUNT_OUT_OF_RANGE'],
    [{ amount: 'ten thousand', termMonths: 6 }, 'AMOUNT_INVALID'],
    [{ amount: 100000, termMonths: 7 }, 'LOAN_TERM_NOT_OFFERED'],
  ])('refuses %j with %s', async (body, code) => {
    const { agent } = await newBorrower();
    const response = await agent.post('/api/applications/quote', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
  });

  it("names the default product's range in SPEC §5's words", async () => {
    const { agent } = await newBorrower();
    const response = await agent.post('/api/applications/quote', { amount: 15000, termMonths: 6 });
    expect(response.body.error.fields.amount.message).toBe(
      'Loan amount must be between ₱10,000 and ₱300,000, in ₱10,000 increments',
    );
  });

  it('is for borrowers only', async () => {
    expect((await t.agent().post('/api/applications/quote', { amount: 100000, termMonths: 6 })).status).toBe(
      401,
    );
    const officer = await t.signInStaff('officer');
    expect((await officer.post('/api/applications/quote', { amount: 100000, termMonths: 6 })).status).toBe(
      403,
    );
  });
});

describe('submitting an application', () => {
  it('reads income and expense typed with grouping commas like every amount ("35,000" → ₱35,000)', async () => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const fields = validFields(phone, { disclosureSha256: sha, income: '35,000', monthlyExpense: '12 500' });
    const response = await submit(agent, fields, validFiles());
    expect(response.status, response.text).toBe(201);
    const row = await t.db
      .selectFrom('applications')
      .select(['income', 'monthly_expense'])
      .where('borrower_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ income: 3_500_000, monthly_expense: 1_250_000 });
  });

  it('stores the application, its disclosure and re-encoded pictures without metadata', async () => {
    const { agent, phone, userId } = await newBorrower();
    const before = await agent.get('/api/applications/mine');
    expect(before.body).toEqual({ application: null, canApply: true });

    const sha = await quote(agent);
    const { payload, contentType } = multipartBody(
      validFields(phone, { disclosureSha256: sha }),
      validFiles(),
    );
    const response = await agent.request('POST', '/api/applications', {
      raw: payload,
      headers: { 'content-type': contentType, 'user-agent': 'SigningBrowser/1.0' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.status).toBe('pending');
    expect(response.body.loanNumber).toMatch(/^HL-\d{2}-\d{6}$/);
    expect(response.body.amountMinor).toBe(10_000_000);
    expect(response.body.monthlyPaymentMinor).toBe(945_596);
    expect(response.body.disclosureSha256).toBe(sha);

    const row = await t.db
      .selectFrom('applications')
      .selectAll()
      .where('borrower_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.income).toBe(3_500_000);
    expect(row.disclosure_sha256).toBe(sha);
    // The signature keeps where it was made (docs/decisions/018).
    expect(row.signed_ip).toBe(agent.ip);
    expect(row.signed_user_agent).toBe('SigningBrowser/1.0');
    const documents = await t.db
      .selectFrom('documents')
      .selectAll()
      .where('application_id', '=', row.id)
      .execute();
    expect(documents.map((d) => d.kind).sort()).toEqual(['id_back', 'id_front', 'selfie', 'signature']);
    // The uploaded photo does carry location and camera tags, so the check below can see them.
    expect(identifyingTags(await exifTags(photo))).toEqual(
      expect.arrayContaining(['GPS:GPSLatitude', 'GPS:GPSLongitude', 'IFD0:Make', 'IFD0:Model']),
    );
    for (const document of documents) {
      expect(document.storage_key.startsWith(`applications/${row.id}/`)).toBe(true);
      const file = await agent.get(`/api/files/${document.id}`);
      expect(file.status).toBe(200);
      expect(file.headers['cache-control']).toBe('private, no-store');
      const storedFile = await t.deps.storage.get(document.storage_key);
      const chunks: Buffer[] = [];
      for await (const chunk of storedFile!.body) chunks.push(chunk as Buffer);
      const stored = await sharp(Buffer.concat(chunks)).metadata();
      expect(stored.exif).toBeUndefined();
      // An independent reader agrees: no GPS, camera, EXIF, XMP or IPTC tag survives.
      expect(identifyingTags(await exifTags(Buffer.concat(chunks))), document.kind).toEqual([]);
      expect(stored.format).toBe(document.kind === 'signature' ? 'png' : 'jpeg');
    }

    const after = await agent.get('/api/applications/mine');
    expect(after.body.canApply).toBe(false);
    expect(after.body.application.id).toBe(row.id);
  });

  it('refuses a second application while one is open', async () => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    expect((await submit(agent, validFields(phone, { disclosureSha256: sha }), validFiles())).status).toBe(
      201,
    );
    const filesBefore = storedFiles().length;
    const again = await submit(agent, validFields(phone, { disclosureSha256: sha }), validFiles());
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('You already have an active loan. You cannot apply again.');
    expect(await countRows(userId)).toEqual({ apps: 1, docs: 4 });
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('lets a borrower apply again once the earlier application was rejected', async () => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    expect((await submit(agent, validFields(phone, { disclosureSha256: sha }), validFiles())).status).toBe(
      201,
    );
    await t.db
      .updateTable('applications')
      .set({ status: 'rejected' })
      .where('borrower_id', '=', userId)
      .execute();
    expect((await agent.get('/api/applications/mine')).body.canApply).toBe(true);
    expect((await submit(agent, validFields(phone, { disclosureSha256: sha }), validFiles())).status).toBe(
      201,
    );
  });

  it('refuses terms that differ from the ones signed', async () => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent, 100000, 12);
    const response = await submit(
      agent,
      validFields(phone, { disclosureSha256: sha, termMonths: '24' }),
      validFiles(),
    );
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('TERMS_CHANGED');
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
  });

  const requiredFields: [string, string][] = [
    ['fullName', 'Full Name is required'],
    ['idNumber', 'ID Number is required'],
    ['companyName', 'Company/Business Name is required'],
    ['position', 'Position is required'],
    ['income', 'Monthly Income is required'],
    ['monthlyExpense', 'Monthly Expense is required'],
    ['address', 'Address is required'],
    ['contactName', 'Contact Name is required'],
    ['contactPhone', 'Contact Phone is required'],
    ['contactAddress', 'Contact Address is required'],
    ['contactRelation', 'Relation is required'],
    ['bankName', 'Bank/Wallet Name is required'],
    ['accountNumber', 'Account Number is required'],
  ];
  it.each(requiredFields)('requires %s', async (field, message) => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const response = await submit(
      agent,
      validFields(phone, { disclosureSha256: sha, [field]: '  ' }),
      validFiles(),
    );
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Please complete all sections before submitting.');
    expect(response.body.error.fields[field].message).toBe(message);
    // The field's key, never its English label: each reader names the field in its own language.
    expect(response.body.error.fields[field].params).toEqual({ fieldKey: field });
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
  });

  it.each([
    ['income', '35.000', 'Monthly Income must be digits only'],
    ['monthlyExpense', '12k', 'Monthly Expense must be digits only'],
    ['accountNumber', '0917-123', 'Account Number must be digits only'],
    ['contactPhone', '0918abc4567', 'Contact Phone must be digits only'],
    ['phone', '12345', 'Phone number must be at least 10 digits and contain only numbers'],
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['contactRelation', 'boss', 'Relation is required'],
    ['amount', '15000', 'Loan amount must be between ₱10,000 and ₱300,000, in ₱10,000 increments'],
    ['phone', '', 'Phone Number is required'],
  ])('refuses %s = %j', async (field, value, message) => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const response = await submit(
      agent,
      validFields(phone, { disclosureSha256: sha, [field]: value }),
      validFiles(),
    );
    expect(response.status).toBe(400);
    expect(response.body.error.fields[field].message).toBe(message);
    if (message.endsWith('digits only')) {
      expect(response.body.error.fields[field].params).toEqual({ fieldKey: field });
    }
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
  });

  it('accepts a missing e-mail (optional)', async () => {
    const { agent, phone } = await newBorrower();
    const sha = await quote(agent);
    const response = await submit(
      agent,
      validFields(phone, { disclosureSha256: sha, email: '' }),
      validFiles(),
    );
    expect(response.status).toBe(201);
  });

  it.each([
    ['idFront', 'Front ID picture is required'],
    ['idBack', 'Back ID picture is required'],
    ['selfie', 'Selfie with ID picture is required'],
    ['signature', 'Please sign in the box'],
  ])('requires the %s file', async (field, message) => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const response = await submit(
      agent,
      validFields(phone, { disclosureSha256: sha }),
      validFiles({ [field]: null }),
    );
    expect(response.status).toBe(400);
    expect(response.body.error.fields[field].message).toBe(message);
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
  });

  const badPictures: [string, () => Buffer | Promise<Buffer>, string, string][] = [
    ['a PDF renamed .jpg', () => pdfBytes, 'front.jpg', 'Pictures must be JPEG, PNG or WebP images'],
    ['an SVG', () => svgBytes, 'front.svg', 'Pictures must be JPEG, PNG or WebP images'],
    [
      'a pixel-flood PNG',
      () => pixelFloodPng(),
      'flood.png',
      'This picture has too many pixels. Please use a smaller picture.',
    ],
    [
      'a file over 10 MB',
      () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(10 * 1024 * 1024)]),
      'big.jpg',
      'Pictures must be at most 10 MB',
    ],
    [
      'a truncated JPEG',
      () => photo.subarray(0, 200),
      'cut.jpg',
      'Pictures must be JPEG, PNG or WebP images',
    ],
  ];
  it.each(badPictures)('refuses %s and keeps nothing', async (_name, make, filename, message) => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const filesBefore = storedFiles().length;
    const data = await make();
    const response = await submit(
      agent,
      validFields(phone, { disclosureSha256: sha }),
      validFiles({ idFront: { name: 'idFront', filename, contentType: 'image/jpeg', data } }),
    );
    expect(response.status).toBe(message.includes('10 MB') ? 413 : 400);
    expect(response.body.error.message).toBe(message);
    expect(response.body.error.fields.idFront.message).toBe(message);
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('refuses an empty signature', async () => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const blank = await blankSignaturePng();
    const response = await submit(
      agent,
      validFields(phone, { disclosureSha256: sha }),
      validFiles({
        signature: { name: 'signature', filename: 's.png', contentType: 'image/png', data: blank },
      }),
    );
    expect(response.status).toBe(400);
    expect(response.body.error.fields.signature.message).toBe('Please sign in the box');
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
  });

  it('refuses unexpected files, repeated fields and non-multipart bodies', async () => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const extra = await submit(agent, validFields(phone, { disclosureSha256: sha }), [
      ...validFiles(),
      { name: 'other', filename: 'x.jpg', contentType: 'image/jpeg', data: photo },
    ]);
    expect(extra.status).toBe(400);
    const json = await agent.post('/api/applications', validFields(phone, { disclosureSha256: sha }));
    expect(json.status).toBe(400);
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
  });

  it('leaves no files or rows when the database write fails after the files were stored', async () => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const filesBefore = storedFiles().length;
    // Make the final insert fail, after the pictures were written and the documents inserted.
    await sql`alter table applications add constraint test_refuse check (full_name <> 'Refuse Me')`.execute(
      t.db,
    );
    try {
      const response = await submit(
        agent,
        validFields(phone, { disclosureSha256: sha, fullName: 'Refuse Me' }),
        validFiles(),
      );
      expect(response.status).toBe(500);
      expect(response.body.error.message).toBe('Something went wrong. Try again.');
      expect(response.text).not.toContain('test_refuse');
    } finally {
      await sql`alter table applications drop constraint test_refuse`.execute(t.db);
    }
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('is refused to staff and signed-out visitors', async () => {
    const admin = await t.signInStaff('admin');
    const sha = 'x'.repeat(64);
    expect(
      (await submit(admin, validFields('09170000000', { disclosureSha256: sha }), validFiles())).status,
    ).toBe(403);
    expect(
      (await submit(t.agent(), validFields('09170000000', { disclosureSha256: sha }), validFiles())).status,
    ).toBe(401);
  });
});

describe('private files', () => {
  it('serves a document only to its owner and staff; everyone else gets 404', async () => {
    const owner = await newBorrower();
    const sha = await quote(owner.agent);
    const created = await submit(
      owner.agent,
      validFields(owner.phone, { disclosureSha256: sha }),
      validFiles(),
    );
    expect(created.status).toBe(201);
    const doc = await t.db
      .selectFrom('documents')
      .select('id')
      .where('owner_id', '=', owner.userId)
      .where('kind', '=', 'selfie')
      .executeTakeFirstOrThrow();

    expect((await owner.agent.get(`/api/files/${doc.id}`)).status).toBe(200);
    const other = await newBorrower();
    const stranger = await other.agent.get(`/api/files/${doc.id}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe('NOT_FOUND');
    expect((await t.agent().get(`/api/files/${doc.id}`)).status).toBe(401);
    for (const role of ['officer', 'finance', 'admin'] as const) {
      const { user, password } = await t.createUser({ role });
      const staff = await t.loginAs(user.username!, password);
      const response = await staff.get(`/api/files/${doc.id}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('image/jpeg');
    }
    expect((await owner.agent.get('/api/files/not-a-uuid')).status).toBe(404);
    expect((await owner.agent.get('/api/files/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('concurrent submissions', () => {
  it('accepts exactly one of two simultaneous applications from the same borrower', async () => {
    const { agent, phone, userId } = await newBorrower();
    const sha = await quote(agent);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        submit(agent, validFields(phone, { disclosureSha256: sha }), validFiles()),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    expect(await countRows(userId)).toEqual({ apps: 1, docs: 4 });
    const app = await t.db
      .selectFrom('applications')
      .select('id')
      .where('borrower_id', '=', userId)
      .executeTakeFirstOrThrow();
    // Only the winner's folder is left on disk.
    const folders = new Set(storedFiles().map((f) => f.split('/')[0]));
    expect(folders.has(app.id)).toBe(true);
    const losers = await t.db
      .selectFrom('documents')
      .select('application_id')
      .where('owner_id', '=', userId)
      .execute();
    expect(new Set(losers.map((d) => d.application_id))).toEqual(new Set([app.id]));
  });
});

describe('malformed multipart bodies (issue #15)', () => {
  it('no boundary, a wrong boundary, a truncated body or broken parts: 400 in the usual shape, nothing stored', async () => {
    const { agent, phone, userId } = await newBorrower();
    const fields = { ...validFields(phone), disclosureSha256: await quote(agent) };
    const { payload, contentType } = multipartBody(fields, validFiles());
    const boundary = contentType.split('boundary=')[1]!;
    const bodies: [string, string | Buffer, string][] = [
      ['no boundary', payload, 'multipart/form-data'],
      ['empty boundary', payload, 'multipart/form-data; boundary='],
      ['wrong boundary', payload, `multipart/form-data; boundary=${boundary}x`],
      ['truncated in a file', payload.subarray(0, Math.floor(payload.length / 2)), contentType],
      ['truncated in the headers', payload.subarray(0, 60), contentType],
      ['no closing boundary', payload.subarray(0, payload.length - 8), contentType],
      ['empty body', '', contentType],
      ['part without headers', `--${boundary}\r\n\r\nvalue\r\n--${boundary}--\r\n`, contentType],
      ['garbage', Buffer.from([0, 255, 0, 13, 10, 45, 45]), contentType],
    ];
    for (const [name, body, type] of bodies) {
      const response = await agent.request('POST', '/api/applications', {
        raw: body,
        headers: { 'content-type': type },
      });
      expect(response.status, `${name}: ${response.text}`).toBe(400);
      expectError(response, 400, 'SECTIONS_INCOMPLETE');
    }
    expect(await countRows(userId)).toEqual({ apps: 0, docs: 0 });
  });
});
