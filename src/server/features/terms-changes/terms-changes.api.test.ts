import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test-support/api-assertions';
import { seedApplication } from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';
import { sendWithdrawalCode } from '../../test-support/withdrawal';

/** Signed terms bind (SPEC §8, docs/decisions/018). */
let t: TestApp;
let officer: Agent;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp();
  officer = await t.signInStaff('officer');
  admin = await t.signInStaff('admin');
});
afterAll(() => t.close());

async function borrowerWith(status: 'pending' | 'approved' = 'pending', amountMinor = 8_000_000) {
  const { user, password, phone } = await t.signUpBorrower();
  const id = await seedApplication(t.db, { borrowerId: user.id, phone, status, amountMinor, termMonths: 12 });
  return { id, user, phone, agent: await t.loginAs(phone, password) };
}

const row = (id: string) =>
  t.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const changes = (id: string) =>
  t.db
    .selectFrom('terms_changes')
    .selectAll()
    .where('application_id', '=', id)
    .orderBy('created_at')
    .execute();
const eventKinds = async (id: string) =>
  (
    await t.db
      .selectFrom('borrower_events')
      .select('kind')
      .where('application_id', '=', id)
      .orderBy('id')
      .execute()
  ).map((e) => e.kind);
const auditActions = async (id: string) =>
  (
    await t.db.selectFrom('audit_events').select('action').where('loan_id', '=', id).orderBy('id').execute()
  ).map((e) => e.action);

async function accept(agent: Agent, phone: string, changeId: string) {
  const sent = await agent.post(`/api/wallet/terms-changes/${changeId}/code`);
  expect(sent.status, sent.text).toBe(200);
  return agent.post(`/api/wallet/terms-changes/${changeId}/accept`, { code: await t.latestCode(phone) });
}

describe('a staff change to a pending application', () => {
  it('raising the amount waits for the borrower: nothing is approved until they accept with a code', async () => {
    const b = await borrowerWith();
    // The statement the borrower signed (seeded rows carry an empty one).
    await t.db
      .updateTable('applications')
      .set({ disclosure: JSON.stringify({ amountMinor: 8_000_000, termMonths: 12 }) })
      .where('id', '=', b.id)
      .execute();
    const raised = await officer.post(`/api/staff/applications/pending/${b.id}/terms`, {
      amount: 90000,
      termMonths: 12,
      reason: 'Income verified',
    });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body).toMatchObject({
      amountMinor: 8_000_000,
      termsChangePending: true,
      proposedTerms: { amountMinor: 9_000_000, termMonths: 12, reason: 'Income verified' },
    });
    expect((await row(b.id)).amount).toBe(8_000_000);
    const listed = await officer.get('/api/staff/applications/pending');
    expect(listed.body.items.find((i: { id: string }) => i.id === b.id).termsChangePending).toBe(true);

    expectError(
      await officer.post(`/api/staff/applications/${b.id}/approve`, {}),
      409,
      'TERMS_CHANGE_PENDING',
    );
    // A second change cannot pile on top of the first.
    expectError(
      await admin.post(`/api/staff/applications/pending/${b.id}/terms`, { amount: 70000, termMonths: 12 }),
      409,
      'TERMS_CHANGE_PENDING',
    );

    const mine = await b.agent.get('/api/wallet/terms');
    expect(mine.status).toBe(200);
    expect(mine.body.proposed).toMatchObject({ status: 'proposed', reason: 'Income verified' });
    expect(mine.body.proposed.disclosure).toMatchObject({ amountMinor: 9_000_000, termMonths: 12 });
    expect(mine.body.proposed.disclosure.monthlyPaymentMinor).toBe(851_036);
    expect(mine.body.accepted).toEqual([]);
    const changeId = mine.body.proposed.id as string;

    await b.agent.post(`/api/wallet/terms-changes/${changeId}/code`);
    expectError(
      await b.agent.post(`/api/wallet/terms-changes/${changeId}/accept`, { code: '000000' }),
      400,
      'CODE_INVALID',
    );
    const code = await t.latestCode(b.phone);
    const accepted = await b.agent.post(
      `/api/wallet/terms-changes/${changeId}/accept`,
      { code },
      {
        headers: { 'user-agent': 'BorrowerPhone/2.0' },
      },
    );
    expect(accepted.status, accepted.text).toBe(200);
    const after = await row(b.id);
    expect(after).toMatchObject({ amount: 9_000_000, term_months: 12, monthly_payment: 851_036 });
    const [stored] = await changes(b.id);
    expect(stored).toMatchObject({
      status: 'accepted',
      decided_by: b.user.id,
      decided_user_agent: 'BorrowerPhone/2.0',
    });
    expect(stored!.disclosure_sha256).toMatch(/^[0-9a-f]{64}$/);
    // Settled: the same code cannot answer it again (and was spent).
    expectError(
      await b.agent.post(`/api/wallet/terms-changes/${changeId}/accept`, { code }),
      409,
      'TERMS_CHANGE_NOT_OPEN',
    );
    const spent = await t.db
      .selectFrom('verification_codes')
      .select('used_at')
      .where('phone', '=', b.phone)
      .where('purpose', '=', 'terms_change')
      .execute();
    expect(spent.filter((c) => c.used_at !== null)).toHaveLength(1);

    const reopened = await b.agent.get('/api/wallet/terms');
    expect(reopened.body.proposed).toBeNull();
    expect(reopened.body.accepted).toHaveLength(1);
    expect(reopened.body.accepted[0]).toMatchObject({ id: changeId, status: 'accepted' });
    expect(reopened.body.signed).toMatchObject({ applicationId: b.id });

    const approved = await officer.post(`/api/staff/applications/${b.id}/approve`, {});
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', approvedAmountMinor: 9_000_000 });
    // The account page shows what the borrower asked for and signed, beside what was approved.
    const account = await b.agent.get('/api/account');
    expect(account.body.loan).toMatchObject({ amountMinor: 8_000_000, approvedAmountMinor: 9_000_000 });
    expect(await eventKinds(b.id)).toEqual(['terms_change_proposed', 'terms_change_accepted', 'approved']);
    expect(await auditActions(b.id)).toEqual(['terms.propose', 'terms.accept', 'application.approve']);
  });

  it('a term change, or a reduction not marked as asked for, also goes to the borrower', async () => {
    const b = await borrowerWith();
    const term = await officer.post(`/api/staff/applications/pending/${b.id}/terms`, {
      amount: 80000,
      termMonths: 6,
    });
    expect(term.body.termsChangePending).toBe(true);
    expect((await officer.post(`/api/staff/applications/${b.id}/terms-change/withdraw`, {})).status).toBe(
      200,
    );
    const lower = await officer.post(`/api/staff/applications/pending/${b.id}/terms`, {
      amount: 60000,
      termMonths: 12,
      reason: 'Policy',
    });
    expect(lower.body).toMatchObject({ termsChangePending: true, amountMinor: 8_000_000 });
  });

  it('declining cancels the change and keeps the signed terms', async () => {
    const b = await borrowerWith();
    await officer.post(`/api/staff/applications/pending/${b.id}/terms`, { amount: 100000, termMonths: 12 });
    const { proposed } = (await b.agent.get('/api/wallet/terms')).body;
    const declined = await b.agent.post(`/api/wallet/terms-changes/${proposed.id}/decline`);
    expect(declined.status, declined.text).toBe(200);
    expect((await row(b.id)).amount).toBe(8_000_000);
    expect((await changes(b.id))[0]!.status).toBe('declined');
    expectError(
      await b.agent.post(`/api/wallet/terms-changes/${proposed.id}/code`),
      409,
      'TERMS_CHANGE_NOT_OPEN',
    );
    expect((await officer.post(`/api/staff/applications/${b.id}/approve`, {})).body.approvedAmountMinor).toBe(
      8_000_000,
    );
    expect(await eventKinds(b.id)).toEqual(['terms_change_proposed', 'terms_change_declined', 'approved']);
  });

  it('applies at once only a lower amount with the same term that the borrower asked for, with a reason', async () => {
    const b = await borrowerWith();
    expectError(
      await officer.post(`/api/staff/applications/pending/${b.id}/terms`, {
        amount: 60000,
        termMonths: 12,
        borrowerRequested: true,
      }),
      400,
      'BORROWER_REQUEST_REASON_REQUIRED',
    );
    for (const body of [
      { amount: 90000, termMonths: 12 },
      { amount: 60000, termMonths: 18 },
    ]) {
      expectError(
        await officer.post(`/api/staff/applications/pending/${b.id}/terms`, {
          ...body,
          borrowerRequested: true,
          reason: 'Asked by phone',
        }),
        400,
        'BORROWER_REQUEST_REASON_REQUIRED',
      );
    }
    const reduced = await officer.post(`/api/staff/applications/pending/${b.id}/terms`, {
      amount: 60000,
      termMonths: 12,
      borrowerRequested: true,
      reason: 'Borrower asked for less by phone',
    });
    expect(reduced.status, reduced.text).toBe(200);
    expect(reduced.body).toMatchObject({ amountMinor: 6_000_000, termsChangePending: false });
    const [applied] = await changes(b.id);
    expect(applied).toMatchObject({
      status: 'applied',
      amount: 6_000_000,
      reason: 'Borrower asked for less by phone',
    });
    const mine = await b.agent.get('/api/wallet/terms');
    expect(mine.body.accepted).toHaveLength(1);
    expect(mine.body.accepted[0].status).toBe('applied');
    expect(await auditActions(b.id)).toEqual(['application.update_terms']);
  });

  it('only the borrower who owns the change can see or answer it', async () => {
    const b = await borrowerWith();
    const other = await borrowerWith();
    await officer.post(`/api/staff/applications/pending/${b.id}/terms`, { amount: 90000, termMonths: 12 });
    const { proposed } = (await b.agent.get('/api/wallet/terms')).body;
    expect((await other.agent.get('/api/wallet/terms')).body.proposed).toBeNull();
    expectError(await other.agent.post(`/api/wallet/terms-changes/${proposed.id}/code`), 404, 'NOT_FOUND');
    expectError(await other.agent.post(`/api/wallet/terms-changes/${proposed.id}/decline`), 404, 'NOT_FOUND');
    expect((await officer.post(`/api/wallet/terms-changes/${proposed.id}/decline`)).status).toBe(403);
    expect((await officer.get('/api/wallet/terms')).status).toBe(403);
  });
});

describe('a staff change to an approved loan', () => {
  it('Change Amount waits for the borrower; meanwhile nothing can be withdrawn; staff can withdraw it', async () => {
    const b = await borrowerWith('approved');
    const raised = await officer.post(`/api/staff/loans/${b.id}/amount`, {
      amount: 150000,
      reason: 'Top-up',
    });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body).toMatchObject({ approvedAmountMinor: 8_000_000, termsChangePending: true });
    const servicing = await officer.get('/api/staff/loans');
    expect(servicing.body.items.find((i: { id: string }) => i.id === b.id).termsChangePending).toBe(true);

    expectError(await sendWithdrawalCode(b.agent, 1000), 409, 'TERMS_CHANGE_AWAITS_YOU');
    expectError(
      await b.agent.post('/api/wallet/withdrawals', {
        amount: 1000,
        code: '123456',
        idempotencyKey: '3b0f6a8e-4c1d-4f7a-9c2e-5d6b7a8c9d0e',
      }),
      409,
      'TERMS_CHANGE_AWAITS_YOU',
    );

    const withdrawn = await admin.post(`/api/staff/applications/${b.id}/terms-change/withdraw`, {
      reason: 'Sent by mistake',
    });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(withdrawn.body.termsChangePending).toBe(false);
    expect((await sendWithdrawalCode(b.agent, 1000)).status).toBe(200);
    expectError(
      await admin.post(`/api/staff/applications/${b.id}/terms-change/withdraw`, {}),
      409,
      'TERMS_CHANGE_NOT_OPEN',
    );
    expect(await eventKinds(b.id)).toEqual(['terms_change_proposed', 'terms_change_withdrawn']);
  });

  it('accepting raises the approved amount and the balance', async () => {
    const b = await borrowerWith('approved');
    await officer.post(`/api/staff/applications/approved/${b.id}/terms`, { amount: 120000, termMonths: 18 });
    const { proposed } = (await b.agent.get('/api/wallet/terms')).body;
    expect(proposed.previous).toBeDefined();
    const accepted = await accept(b.agent, b.phone, proposed.id);
    expect(accepted.status, accepted.text).toBe(200);
    expect(await row(b.id)).toMatchObject({
      amount: 12_000_000,
      approved_amount: 12_000_000,
      term_months: 18,
    });
    const wallet = await b.agent.get('/api/wallet');
    expect(wallet.status).toBe(200);
    expect(JSON.stringify(wallet.body)).toContain('12000000');
  });
});

describe('races', () => {
  it('accept, staff withdraw and approve at once leave one consistent outcome', async () => {
    for (let round = 0; round < 4; round++) {
      const b = await borrowerWith();
      await officer.post(`/api/staff/applications/pending/${b.id}/terms`, { amount: 90000, termMonths: 12 });
      const { proposed } = (await b.agent.get('/api/wallet/terms')).body;
      await b.agent.post(`/api/wallet/terms-changes/${proposed.id}/code`);
      const code = await t.latestCode(b.phone);
      const [accepted, withdrawn, approved] = await Promise.all([
        b.agent.post(`/api/wallet/terms-changes/${proposed.id}/accept`, { code }),
        admin.post(`/api/staff/applications/${b.id}/terms-change/withdraw`, {}),
        officer.post(`/api/staff/applications/${b.id}/approve`, {}),
      ]);
      // Exactly one of the borrower and the staff member settled the change.
      expect([accepted.status, withdrawn.status].filter((s) => s === 200)).toHaveLength(1);
      const [change] = await changes(b.id);
      const app = await row(b.id);
      if (accepted.status === 200) {
        expect(change!.status).toBe('accepted');
        expect(app.amount).toBe(9_000_000);
      } else {
        expect(change!.status).toBe('withdrawn');
        expect(app.amount).toBe(8_000_000);
      }
      if (approved.status === 200) {
        // Approved only once the change was settled, on the terms that bind.
        expect(app).toMatchObject({ status: 'approved', approved_amount: app.amount });
      } else {
        expectError(approved, 409, 'TERMS_CHANGE_PENDING');
        expect(app.status).toBe('pending');
      }
    }
  });
});
