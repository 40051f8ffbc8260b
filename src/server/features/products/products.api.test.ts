import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loanTermsOfVersion } from '../../../domain/loan/products';
import type { ProductTermsInput } from '../../../domain/schemas/products';
import { expectError } from '../../test-support/api-assertions';
import { applicationFields } from '../../test-support/application-form';
import { jpegWithGps, multipartBody, signaturePng } from '../../test-support/images';
import { payOutThroughApi, seedApplication } from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

/**
 * Loan products (issue #31, docs/decisions/034): the catalogue in the back office (versions, the legal
 * ceilings, the audit trail, who may do what), what a borrower is offered and for how much, and a loan that
 * keeps the version it was signed under.
 */
let t: TestApp;
let admin: Agent;
let officer: Agent;
let finance: Agent;
let photo: Buffer;
let signature: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInStaff('admin');
  officer = await t.signInStaff('officer');
  finance = await t.signInStaff('finance');
  [photo, signature] = await Promise.all([jpegWithGps(200, 150), signaturePng()]);
});
afterAll(() => t.close());

let codes = 0;
const nextCode = () => `product-${++codes}`;

/** A small salary loan: ₱5,000–₱50,000 in ₱5,000 steps over 3 or 6 months at 3 %. */
function salaryTerms(overrides: Partial<ProductTermsInput> = {}): ProductTermsInput {
  return {
    names: { en: 'Salary loan', fil: 'Pautang sa sahod', zh: '工资贷款', km: 'ប្រាក់កម្ចីប្រាក់ខែ' },
    borrowerAmount: { min: 5_000, max: 50_000, step: 5_000 },
    staffAmount: { min: 5_000, max: 100_000, step: 5_000 },
    termsMonths: [3, 6],
    defaultTermMonths: 3,
    monthlyRateBp: 300,
    fees: { flatMinor: 0, percentBp: 0, collection: 'deducted_from_payout' },
    lateChargeMonthlyBp: 0,
    graceDays: 3,
    fourEyesThresholdMinor: 2_000_000,
    eligibility: { firstLoanMaxAmount: 20_000, repeat: { afterLoans: 1, maxDaysLate: 5, maxAmount: 50_000 } },
    ...overrides,
  };
}

async function createProduct(terms = salaryTerms(), code = nextCode()) {
  const response = await admin.post('/api/staff/products', { code, terms });
  expect(response.status, response.text).toBe(201);
  return response.body as {
    id: string;
    current: { id: string; version: number; terms: ProductTermsInput & { status: string } };
  };
}

async function newBorrower() {
  const { phone, password, user } = await t.signUpBorrower();
  return { agent: await t.loginAs(phone, password), phone, user };
}

/** A whole application through the real routes: quote, sign, submit. */
async function apply(
  borrower: { agent: Agent; phone: string },
  request: { amount: number; termMonths: number; productVersionId?: string },
) {
  const quote = await borrower.agent.post('/api/applications/quote', request);
  expect(quote.status, quote.text).toBe(200);
  return { quote, submitted: await submit(borrower, request, quote.body.disclosureSha256) };
}

/** The multipart submission, signed for the disclosure with `sha256`. */
async function submit(
  borrower: { agent: Agent; phone: string },
  request: { amount: number; termMonths: number; productVersionId?: string },
  sha256: string,
) {
  const { payload, contentType } = multipartBody(
    applicationFields(borrower.phone, {
      amount: String(request.amount),
      termMonths: String(request.termMonths),
      ...(request.productVersionId ? { productVersionId: request.productVersionId } : {}),
      disclosureSha256: sha256,
    }),
    ['idFront', 'idBack', 'selfie']
      .map((name) => ({ name, filename: `${name}.jpg`, contentType: 'image/jpeg', data: photo }))
      .concat([{ name: 'signature', filename: 's.png', contentType: 'image/png', data: signature }]),
  );
  return borrower.agent.request('POST', '/api/applications', {
    raw: payload,
    headers: { 'content-type': contentType },
  });
}

async function versionCount() {
  const row = await t.db
    .selectFrom('product_versions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function auditOf(targetId: string) {
  return t.db
    .selectFrom('audit_events')
    .select(['action', 'actor_role', 'actor_username', 'changes', 'reason'])
    .where('target_type', '=', 'product')
    .where('target_id', '=', targetId)
    .orderBy('id')
    .execute();
}

/** Retires every product but `keep`, so a borrower is offered exactly what a test needs. */
async function offerOnly(...keep: string[]) {
  const { body } = await admin.get('/api/staff/products');
  for (const product of body.items as {
    id: string;
    current: { version: number; terms: { status: string } };
  }[]) {
    if (keep.includes(product.id) || product.current.terms.status === 'retired') continue;
    const retired = await admin.post(`/api/staff/products/${product.id}/retire`, {
      basedOnVersion: product.current.version,
      reason: 'Test: one product at a time',
    });
    expect(retired.status, retired.text).toBe(200);
  }
}

describe('the default product', () => {
  it('is version 1 from the settings, written once at start and recorded as the system’s', async () => {
    const list = await officer.get('/api/staff/products');
    expect(list.status).toBe(200);
    const first = list.body.items[0];
    expect(first).toMatchObject({ code: 'personal-loan', isDefault: true });
    expect(first.current).toMatchObject({
      version: 1,
      createdBy: null,
      terms: {
        names: { en: 'Personal loan' },
        borrowerAmount: { min: 10_000, max: 300_000, step: 10_000 },
        staffAmount: { min: 50_000, max: 2_000_000, step: 10_000 },
        termsMonths: [6, 12, 18, 24],
        monthlyRateBp: 200,
        lateChargeMonthlyBp: t.deps.config.repaymentRules.lateChargeMonthlyBp,
        graceDays: t.deps.config.repaymentRules.graceDays,
        fourEyesThresholdMinor: t.deps.config.fourEyesThresholdMinor,
        eligibility: { firstLoanMaxAmount: 300_000, repeat: null },
        status: 'active',
      },
    });
    const [created] = await auditOf(first.id);
    expect(created).toMatchObject({
      action: 'product.create',
      actor_role: 'system',
      actor_username: 'settings',
    });
  });
});

describe('the catalogue in the back office', () => {
  it('lets an admin create a product, offered at once, audited with every term', async () => {
    const code = nextCode();
    const product = await createProduct(salaryTerms(), code);
    expect(product.current).toMatchObject({ version: 1, loansSigned: 0, terms: { status: 'active' } });
    const events = await auditOf(product.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'product.create', actor_role: 'admin', reason: null });
    expect(events[0]!.changes).toMatchObject({
      productCode: { before: null, after: code },
      productVersion: { before: null, after: 1 },
      monthlyRate: { before: null, after: 300 },
      borrowerMaxAmount: { before: null, after: 5_000_000 },
      repeatMaxAmount: { before: null, after: 5_000_000 },
      status: { before: null, after: 'active' },
    });
  });

  it('lets every staff member read products, and only admins change them', async () => {
    const product = await createProduct();
    for (const reader of [officer, finance, admin]) {
      expect((await reader.get('/api/staff/products')).status).toBe(200);
      expect((await reader.get(`/api/staff/products/${product.id}`)).status).toBe(200);
    }
    for (const other of [officer, finance]) {
      expectError(
        await other.post('/api/staff/products', { code: nextCode(), terms: salaryTerms() }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await other.post(`/api/staff/products/${product.id}/versions`, {
          basedOnVersion: 1,
          terms: salaryTerms(),
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await other.post(`/api/staff/products/${product.id}/retire`, { basedOnVersion: 1, reason: 'no' }),
        403,
        'FORBIDDEN',
      );
    }
    const { agent } = await newBorrower();
    expectError(await agent.get('/api/staff/products'), 403, 'FORBIDDEN');
    expectError(await t.agent().get('/api/staff/products'), 401, 'UNAUTHENTICATED');
  });

  it.each([
    ['a rate above 6 % a month', { monthlyRateBp: 601 }, 'monthlyRateBp', 'PRODUCT_RATE_ABOVE_CAP'],
    [
      'a late charge above 5 % a month',
      { lateChargeMonthlyBp: 501 },
      'lateChargeMonthlyBp',
      'PRODUCT_LATE_CHARGE_ABOVE_CAP',
    ],
    ['more than 31 grace days', { graceDays: 32 }, 'graceDays', 'PRODUCT_GRACE_DAYS_INVALID'],
    [
      'interest and fees above 100 % of the principal',
      { monthlyRateBp: 600, termsMonths: [36], defaultTermMonths: 36 },
      'monthlyRateBp',
      'PRODUCT_COST_ABOVE_CAP',
    ],
    [
      'an effective rate above 15 % a month',
      { fees: { flatMinor: 200_000, percentBp: 0, collection: 'deducted_from_payout' } },
      'fees.percentBp',
      'PRODUCT_EFFECTIVE_RATE_ABOVE_CAP',
    ],
    [
      'a maximum not reached in whole steps',
      { borrowerAmount: { min: 5_000, max: 52_000, step: 5_000 } },
      'borrowerAmount',
      'PRODUCT_AMOUNT_RULE_INVALID',
    ],
    [
      'a default period not offered',
      { defaultTermMonths: 12 },
      'defaultTermMonths',
      'PRODUCT_DEFAULT_TERM_INVALID',
    ],
    [
      'a first-loan limit off the amounts borrowers may ask for',
      { eligibility: { firstLoanMaxAmount: 22_000, repeat: null } },
      'eligibility.firstLoanMaxAmount',
      'PRODUCT_LIMIT_INVALID',
    ],
    [
      'a repeat limit not larger than the first',
      {
        eligibility: {
          firstLoanMaxAmount: 20_000,
          repeat: { afterLoans: 1, maxDaysLate: 0, maxAmount: 20_000 },
        },
      },
      'eligibility.repeat.maxAmount',
      'PRODUCT_REPEAT_LIMIT_NOT_LARGER',
    ],
  ] as const)(
    'refuses %s, saying so on the field, and saves nothing',
    async (_why, overrides, field, code) => {
      const before = await versionCount();
      const response = await admin.post('/api/staff/products', {
        code: nextCode(),
        terms: salaryTerms(overrides as Partial<ProductTermsInput>),
      });
      expectError(response, 400, 'PRODUCT_INVALID');
      expect(response.body.error.fields[field]?.code, JSON.stringify(response.body.error.fields)).toBe(code);
      expect(await versionCount()).toBe(before);
    },
  );

  it('names the amount and period that break a ceiling, in words', async () => {
    const response = await admin.post('/api/staff/products', {
      code: nextCode(),
      terms: salaryTerms({ monthlyRateBp: 600, termsMonths: [36], defaultTermMonths: 36 }),
    });
    expect(response.body.error.fields.monthlyRateBp.message).toMatch(
      /^Interest and fees would cost more than the amount lent for ₱[\d,]+ over 36 months \(legal ceiling: 100%\)\.$/,
    );
  });

  it('refuses a missing name, a bad code and a code already used', async () => {
    const terms = salaryTerms();
    const noKhmer = await admin.post('/api/staff/products', {
      code: nextCode(),
      terms: { ...terms, names: { ...terms.names, km: ' ' } },
    });
    expectError(noKhmer, 400, 'PRODUCT_NAME_REQUIRED');
    expect(noKhmer.body.error.fields['terms.names.km'].code).toBe('PRODUCT_NAME_REQUIRED');
    const badCode = await admin.post('/api/staff/products', { code: 'Salary Loan!', terms });
    expect(badCode.body.error.fields.code.code).toBe('PRODUCT_CODE_INVALID');
    const code = nextCode();
    await createProduct(terms, code);
    expectError(await admin.post('/api/staff/products', { code, terms }), 409, 'PRODUCT_CODE_TAKEN');
  });

  it('makes an edit the next version, keeps the earlier one as it was, and audits what changed', async () => {
    const product = await createProduct();
    const edited = await admin.post(`/api/staff/products/${product.id}/versions`, {
      basedOnVersion: 1,
      terms: salaryTerms({ lateChargeMonthlyBp: 300 }),
      reason: 'Late payments rose',
    });
    expect(edited.status, edited.text).toBe(201);
    expect(edited.body.current).toMatchObject({ version: 2, terms: { lateChargeMonthlyBp: 300 } });
    expect(edited.body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(edited.body.versions[1].terms.lateChargeMonthlyBp).toBe(0);
    expect(edited.body.versions.map((v: { reason: string | null }) => v.reason)).toEqual([
      'Late payments rose',
      null,
    ]);
    const events = await auditOf(product.id);
    expect(events.at(-1)).toMatchObject({
      action: 'product.new_version',
      actor_role: 'admin',
      reason: 'Late payments rose',
      changes: { productVersion: { before: 1, after: 2 }, lateCharge: { before: 0, after: 300 } },
    });
    expect(Object.keys(events.at(-1)!.changes as object).sort()).toEqual(['lateCharge', 'productVersion']);

    // Made from an older version: someone saved meanwhile.
    expectError(
      await admin.post(`/api/staff/products/${product.id}/versions`, {
        basedOnVersion: 1,
        terms: salaryTerms({ graceDays: 5 }),
      }),
      409,
      'PRODUCT_VERSION_OUTDATED',
    );
    expectError(
      await admin.post(`/api/staff/products/${product.id}/versions`, {
        basedOnVersion: 2,
        terms: salaryTerms({ lateChargeMonthlyBp: 300 }),
      }),
      409,
      'PRODUCT_UNCHANGED',
    );
    expectError(
      await admin.post(`/api/staff/products/${product.id}/versions`, {
        basedOnVersion: 2,
        terms: salaryTerms({ lateChargeMonthlyBp: 900 }),
      }),
      400,
      'PRODUCT_INVALID',
    );
    expect((await admin.get(`/api/staff/products/${product.id}`)).body.current.version).toBe(2);
  });

  it('never lets a stored version or product change (triggers)', async () => {
    await expect(
      t.db.updateTable('product_versions').set({ monthly_rate_bp: 100 }).where('version', '=', 1).execute(),
    ).rejects.toThrow(/never changed or deleted/);
    await expect(t.db.deleteFrom('products').execute()).rejects.toThrow(/never changed or deleted/);
  });

  it('retires a product (no new applications, a reason required) and offers it again', async () => {
    const product = await createProduct();
    expectError(
      await admin.post(`/api/staff/products/${product.id}/retire`, { basedOnVersion: 1, reason: ' ' }),
      400,
      'REASON_REQUIRED',
    );
    const retired = await admin.post(`/api/staff/products/${product.id}/retire`, {
      basedOnVersion: 1,
      reason: 'Replaced',
    });
    expect(retired.status, retired.text).toBe(200);
    expect(retired.body.current).toMatchObject({ version: 2, terms: { status: 'retired' } });
    expectError(
      await admin.post(`/api/staff/products/${product.id}/retire`, { basedOnVersion: 2, reason: 'Again' }),
      409,
      'PRODUCT_ALREADY_RETIRED',
    );
    const borrower = await newBorrower();
    const offered = await borrower.agent.get('/api/products');
    expect(offered.body.items.map((p: { productId: string }) => p.productId)).not.toContain(product.id);
    expectError(
      await borrower.agent.post('/api/applications/quote', {
        amount: 10_000,
        termMonths: 3,
        productVersionId: product.current.id,
      }),
      409,
      'PRODUCT_NOT_OFFERED',
    );
    const back = await admin.post(`/api/staff/products/${product.id}/reactivate`, {
      basedOnVersion: 2,
      reason: 'Needed again',
    });
    expect(back.body.current).toMatchObject({ version: 3, terms: { status: 'active' } });
    expect((await auditOf(product.id)).map((e) => e.action)).toEqual([
      'product.create',
      'product.retire',
      'product.reactivate',
    ]);
    expectError(
      await admin.get('/api/staff/products/00000000-0000-4000-8000-000000000000'),
      404,
      'PRODUCT_NOT_FOUND',
    );
  });
});

describe('what a borrower is offered', () => {
  it('asks which product when several are offered, and prices the chosen version', async () => {
    const product = await createProduct();
    const borrower = await newBorrower();
    const offered = await borrower.agent.get('/api/products');
    expect(offered.status).toBe(200);
    const salary = offered.body.items.find((p: { productId: string }) => p.productId === product.id);
    expect(salary).toMatchObject({
      versionId: product.current.id,
      borrowerAmount: { min: 5_000, max: 20_000, step: 5_000 },
      monthlyRateBp: 300,
      limit: {
        basis: 'first_loan',
        repeatMaxAmount: 50_000,
        loansNeeded: 1,
        repeatMaxDaysLate: 5,
        qualifyingLoans: 0,
      },
    });
    expectError(
      await borrower.agent.post('/api/applications/quote', { amount: 10_000, termMonths: 3 }),
      400,
      'PRODUCT_CHOICE_REQUIRED',
    );
    const quote = await borrower.agent.post('/api/applications/quote', {
      amount: 10_000,
      termMonths: 3,
      productVersionId: product.current.id,
    });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.disclosure).toMatchObject({
      monthlyRate: '0.03',
      termMonths: 3,
      amountMinor: 1_000_000,
    });
  });

  it("refuses an amount above the borrower's limit, outside the product's range, or a period it does not offer", async () => {
    const product = await createProduct();
    const { agent } = await newBorrower();
    const ask = (amount: number, termMonths = 3) =>
      agent.post('/api/applications/quote', { amount, termMonths, productVersionId: product.current.id });
    const above = await ask(30_000);
    expectError(above, 400, 'LOAN_AMOUNT_ABOVE_LIMIT');
    expect(above.body.error.fields.amount.message).toBe(
      'The most you can borrow with this product is ₱20,000. Choose a smaller amount.',
    );
    const outside = await ask(7_000);
    expectError(outside, 400, 'LOAN_AMOUNT_OUT_OF_RANGE');
    expect(outside.body.error.fields.amount.message).toBe(
      'Loan amount must be between ₱5,000 and ₱20,000, in ₱5,000 increments',
    );
    expectError(await ask(10_000, 12), 400, 'LOAN_TERM_NOT_OFFERED');
  });

  it('stores the version, its terms and its rate with the signed application', async () => {
    const product = await createProduct();
    const borrower = await newBorrower();
    const { submitted } = await apply(borrower, {
      amount: 15_000,
      termMonths: 6,
      productVersionId: product.current.id,
    });
    expect(submitted.status, submitted.text).toBe(201);
    const row = await t.db
      .selectFrom('applications')
      .select(['product_version_id', 'terms', 'monthly_rate_bp'])
      .where('id', '=', submitted.body.id)
      .executeTakeFirstOrThrow();
    expect(row.product_version_id).toBe(product.current.id);
    expect(row.monthly_rate_bp).toBe(300);
    expect(row.terms).toEqual(loanTermsOfVersion({ ...salaryTerms(), status: 'active' }));
    expect((await admin.get(`/api/staff/products/${product.id}`)).body.current.loansSigned).toBe(1);
  });

  it('tells a borrower who quoted an older version that the terms changed', async () => {
    const product = await createProduct();
    const borrower = await newBorrower();
    const quote = await borrower.agent.post('/api/applications/quote', {
      amount: 10_000,
      termMonths: 3,
      productVersionId: product.current.id,
    });
    expect(quote.status).toBe(200);
    await admin.post(`/api/staff/products/${product.id}/versions`, {
      basedOnVersion: 1,
      terms: salaryTerms({ monthlyRateBp: 250 }),
    });
    const request = { amount: 10_000, termMonths: 3, productVersionId: product.current.id };
    const submitted = await submit(borrower, request, quote.body.disclosureSha256);
    expectError(submitted, 409, 'PRODUCT_TERMS_UPDATED');
    expect(
      await t.db
        .selectFrom('applications')
        .select('id')
        .where('borrower_id', '=', borrower.user.id)
        .execute(),
    ).toEqual([]);
    expectError(
      await borrower.agent.post('/api/applications/quote', {
        amount: 10_000,
        termMonths: 3,
        productVersionId: product.current.id,
      }),
      409,
      'PRODUCT_TERMS_UPDATED',
    );
  });
});

describe('repeat borrowers', () => {
  /** A loan of the borrower, repaid in full: paid out on `paidOn`, one repayment on `repaidOn`. */
  async function repaidLoan(borrowerId: string, paidOn: string, repaidOn: string) {
    const id = await seedApplication(t.db, {
      borrowerId,
      status: 'closed',
      amountMinor: 1_000_000,
      termMonths: 3,
    });
    await t.db
      .insertInto('disbursements')
      .values({
        application_id: id,
        amount: 1_000_000,
        bank_name: 'GCash',
        account_number: '09171234567',
        code_verified: true,
        status: 'paid',
        decided_at: new Date(`${paidOn}T04:00:00Z`),
        reference: `REPEAT-${id.slice(0, 8)}`,
      })
      .execute();
    await t.db
      .insertInto('repayments')
      .values({
        application_id: id,
        amount: 1_100_000,
        received_on: repaidOn,
        channel: 'cash',
        reference: `REPAID-${id.slice(0, 8)}`,
        source: 'webhook',
      })
      .execute();
    await sql`update applications set closed_at = ${new Date(`${repaidOn}T05:00:00Z`)} where id = ${id}`.execute(
      t.db,
    );
    return id;
  }

  it('earn the larger limit with loans repaid at most D days late, and may apply again', async () => {
    const product = await createProduct();
    const onTime = await newBorrower();
    await repaidLoan(onTime.user.id, '2026-01-05', '2026-02-05');
    const late = await newBorrower();
    // Due 2026-02-05, paid 40 days later: more than the 5 days the product allows.
    await repaidLoan(late.user.id, '2026-01-05', '2026-03-17');
    const limitOf = async (agent: Agent) =>
      (await agent.get('/api/products')).body.items.find(
        (p: { productId: string }) => p.productId === product.id,
      );

    expect(await limitOf(onTime.agent)).toMatchObject({
      borrowerAmount: { max: 50_000 },
      limit: { basis: 'repeat', qualifyingLoans: 1 },
    });
    expect(await limitOf(late.agent)).toMatchObject({
      borrowerAmount: { max: 20_000 },
      limit: { basis: 'first_loan', qualifyingLoans: 0 },
    });
    expect((await onTime.agent.get('/api/applications/mine')).body.canApply).toBe(true);
    const { submitted } = await apply(onTime, {
      amount: 45_000,
      termMonths: 6,
      productVersionId: product.current.id,
    });
    expect(submitted.status, submitted.text).toBe(201);
    expectError(
      await late.agent.post('/api/applications/quote', {
        amount: 45_000,
        termMonths: 6,
        productVersionId: product.current.id,
      }),
      400,
      'LOAN_AMOUNT_ABOVE_LIMIT',
    );
    const account = await onTime.agent.get('/api/account');
    expect(account.body.loans.map((l: { status: string }) => l.status)).toEqual(['pending', 'closed']);
    expect(account.body.loans[0].productNames.en).toBe('Salary loan');
  });
});

describe('a signed loan and later versions', () => {
  it('keeps a v1 loan’s terms, disclosure and figures when v2 raises the late charge; a v2 application gets the new terms', async () => {
    const product = await createProduct(
      salaryTerms({
        borrowerAmount: { min: 10_000, max: 100_000, step: 10_000 },
        staffAmount: { min: 10_000, max: 100_000, step: 10_000 },
        fourEyesThresholdMinor: 10_000_000,
        eligibility: { firstLoanMaxAmount: 100_000, repeat: null },
      }),
    );
    const borrower = await newBorrower();
    const { submitted } = await apply(borrower, {
      amount: 50_000,
      termMonths: 6,
      productVersionId: product.current.id,
    });
    expect(submitted.status, submitted.text).toBe(201);
    const loanId = submitted.body.id as string;
    const approved = await officer.post(`/api/staff/applications/${loanId}/approve`, { creditScore: 600 });
    expect(approved.status, approved.text).toBe(200);
    await payOutThroughApi(t.db, finance, loanId, 5_000_000, `V1-${loanId.slice(0, 8)}`);
    const before = {
      row: await t.db
        .selectFrom('applications')
        .select(['terms', 'disclosure', 'disclosure_sha256', 'monthly_payment', 'product_version_id'])
        .where('id', '=', loanId)
        .executeTakeFirstOrThrow(),
      ledger: (await finance.get(`/api/staff/loans/${loanId}/ledger`)).body,
      statement: (await finance.get(`/api/staff/loans/${loanId}/statement.pdf`)).rawPayload.length,
    };
    expect(before.ledger.position.lateChargeMonthlyBp).toBe(0);

    const v2 = await admin.post(`/api/staff/products/${product.id}/versions`, {
      basedOnVersion: 1,
      terms: salaryTerms({
        borrowerAmount: { min: 10_000, max: 100_000, step: 10_000 },
        staffAmount: { min: 10_000, max: 100_000, step: 10_000 },
        fourEyesThresholdMinor: 10_000_000,
        eligibility: { firstLoanMaxAmount: 100_000, repeat: null },
        lateChargeMonthlyBp: 300,
      }),
    });
    expect(v2.status, v2.text).toBe(201);

    t.forgetCachedAnswers();
    const after = {
      row: await t.db
        .selectFrom('applications')
        .select(['terms', 'disclosure', 'disclosure_sha256', 'monthly_payment', 'product_version_id'])
        .where('id', '=', loanId)
        .executeTakeFirstOrThrow(),
      ledger: (await finance.get(`/api/staff/loans/${loanId}/ledger`)).body,
      statement: (await finance.get(`/api/staff/loans/${loanId}/statement.pdf`)).rawPayload.length,
    };
    expect(after.row).toEqual(before.row);
    expect(after.ledger.position).toEqual(before.ledger.position);
    expect(after.statement).toBe(before.statement);

    const other = await newBorrower();
    const quote = await other.agent.post('/api/applications/quote', {
      amount: 50_000,
      termMonths: 6,
      productVersionId: v2.body.current.id,
    });
    expect(quote.body.disclosure.lateCharge).toMatchObject({ monthlyBp: 300, graceDays: 3 });
  });
});

describe("staff changes follow the loan's own version", () => {
  it("offer the version's staff range and periods, and its four-eyes threshold", async () => {
    // Staff may propose ₱5,000 steps up to ₱100,000 (the default product: ₱10,000 steps from ₱50,000).
    const product = await createProduct(salaryTerms({ fourEyesThresholdMinor: 1_000_000 }));
    const borrower = await newBorrower();
    const { submitted } = await apply(borrower, {
      amount: 15_000,
      termMonths: 3,
      productVersionId: product.current.id,
    });
    const id = submitted.body.id as string;
    const profile = await officer.get(`/api/staff/applications/${id}`);
    expect(profile.body.product).toMatchObject({
      code: expect.stringMatching(/^product-/),
      version: 1,
      signedUnder: true,
      staffAmount: { min: 5_000, max: 100_000, step: 5_000 },
      termsMonths: [3, 6],
      fourEyesThresholdMinor: 1_000_000,
    });
    expectError(
      await officer.post(`/api/staff/applications/pending/${id}/terms`, { amount: 105_000, termMonths: 3 }),
      400,
      'LOAN_UPDATE_INVALID',
    );
    expectError(
      await officer.post(`/api/staff/applications/pending/${id}/terms`, { amount: 15_000, termMonths: 12 }),
      400,
      'LOAN_UPDATE_INVALID',
    );
    const proposed = await officer.post(`/api/staff/applications/pending/${id}/terms`, {
      amount: 25_000,
      termMonths: 6,
    });
    expect(proposed.status, proposed.text).toBe(200);
    expect(proposed.body.termsChangePending).toBe(true);
    await officer.post(`/api/staff/applications/${id}/terms-change/withdraw`, { reason: 'test' });

    // ₱15,000 is above this version's ₱10,000 threshold (the settings' is ₱100,000): a second approval.
    const first = await officer.post(`/api/staff/applications/${id}/approve`, { creditScore: 600 });
    expect(first.status, first.text).toBe(200);
    const row = await t.db
      .selectFrom('applications')
      .select(['status', 'first_approved_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    expect(row.first_approved_by).not.toBeNull();
  });

  it('follow the default product’s first version for a loan signed before products', async () => {
    const { user } = await t.createUser({ role: 'borrower' });
    const id = await seedApplication(t.db, { borrowerId: user.id, phone: user.phone! });
    const profile = await officer.get(`/api/staff/applications/${id}`);
    expect(profile.body.product).toMatchObject({
      code: 'personal-loan',
      version: 1,
      signedUnder: false,
      staffAmount: { min: 50_000, max: 2_000_000, step: 10_000 },
    });
  });
});

describe('one product offered', () => {
  it('needs no choice: a quote without a version prices the one offered', async () => {
    const product = await createProduct();
    await offerOnly(product.id);
    const { agent } = await newBorrower();
    const offered = await agent.get('/api/products');
    expect(offered.body.items).toHaveLength(1);
    const quote = await agent.post('/api/applications/quote', { amount: 10_000, termMonths: 3 });
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.disclosure.monthlyRate).toBe('0.03');
  });
});
