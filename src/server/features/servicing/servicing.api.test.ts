import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  seedBorrowerWithApplication,
  seedRequestedDisbursement,
  storedAuditEvent,
} from '../../test-support/seed';
import { acceptProposedTerms } from '../../test-support/terms';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';
import { sendWithdrawalCode } from '../../test-support/withdrawal';

let t: TestApp;
let officer: Agent;
let finance: Agent;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp();
  officer = await t.signInStaff('officer');
  finance = await t.signInStaff('finance');
  admin = await t.signInStaff('admin');
});
afterAll(() => t.close());

async function runningLoan() {
  const { borrower: b, id } = await seedBorrowerWithApplication(t, {
    status: 'approved',
    fullName: 'Servicing Person',
  });
  return { id, ...b, agent: await t.loginAs(b.phone, b.password) };
}

const history = async (agent: Agent) =>
  (await agent.get('/api/wallet')).body.history as { kind: string; message: string | null }[];

describe('loan servicing', () => {
  it('lists running loans with what is available', async () => {
    const { id } = await runningLoan();
    await seedRequestedDisbursement(t.db, id, 2_000_000);
    const list = await finance.get('/api/staff/loans?name=servicing person');
    const row = list.body.items.find((i: { id: string }) => i.id === id);
    expect(row).toMatchObject({
      approvedAmountMinor: 10_000_000,
      availableMinor: 8_000_000,
      status: 'approved',
      creditScore: 500,
    });
  });

  it('every action needs a reason and changes nothing without one', async () => {
    const { id } = await runningLoan();
    const calls: [Agent, string, object][] = [
      [officer, 'status', { action: 'hold', message: 'Call us' }],
      [finance, 'bank-details', { bankName: 'BPI', accountNumber: '123456' }],
      [officer, 'credit-score', { creditScore: 700 }],
      [officer, 'message', { message: 'Hello' }],
      [officer, 'amount', { amount: 120000 }],
    ];
    for (const [agent, path, body] of calls) {
      for (const bad of [body, { ...body, reason: '   ' }]) {
        const response = await agent.post(`/api/staff/loans/${id}/${path}`, bad);
        expect(response.status, path).toBe(400);
        expect(response.body.error.message).toBe('A reason is required.');
      }
    }
    const audit = await t.db.selectFrom('audit_events').select('id').where('loan_id', '=', id).execute();
    expect(audit).toHaveLength(0);
  });

  it('hold pauses withdrawals with the message; release restores them; the borrower sees both', async () => {
    const { id, agent } = await runningLoan();
    const noMessage = await officer.post(`/api/staff/loans/${id}/status`, {
      action: 'hold',
      reason: 'KYC check',
    });
    expect(noMessage.status).toBe(400);
    // The field's key, never its English label (issue #36); the English message is for API clients.
    expect(noMessage.body.error).toMatchObject({
      code: 'FIELD_REQUIRED',
      message: 'Message is required',
      params: { fieldKey: 'message' },
      fields: {
        message: { code: 'FIELD_REQUIRED', message: 'Message is required', params: { fieldKey: 'message' } },
      },
    });
    const tooLong = await officer.post(`/api/staff/loans/${id}/status`, {
      action: 'hold',
      message: 'x'.repeat(5000),
      reason: 'KYC check',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({
      code: 'FIELD_TOO_LONG',
      message: 'Message is too long',
      params: { fieldKey: 'message' },
      fields: { message: { message: 'Message is too long', params: { fieldKey: 'message' } } },
    });
    const hold = await officer.post(`/api/staff/loans/${id}/status`, {
      action: 'hold',
      message: 'Please visit our branch with your ID',
      reason: 'KYC check',
    });
    expect(hold.status).toBe(200);
    expect(hold.body).toMatchObject({
      status: 'on_hold',
      statusMessage: 'Please visit our branch with your ID',
    });
    const refused = await agent.post('/api/wallet/withdrawal-code', { amount: 1000 });
    expect(refused.body.error.message).toBe('Withdrawals are paused: Please visit our branch with your ID');
    const again = await officer.post(`/api/staff/loans/${id}/status`, {
      action: 'hold',
      message: 'x',
      reason: 'again',
    });
    expect(again.status).toBe(409);
    const release = await admin.post(`/api/staff/loans/${id}/status`, {
      action: 'release',
      reason: 'Verified',
    });
    expect(release.body.status).toBe('approved');
    expect((await sendWithdrawalCode(agent, 1000)).status).toBe(200);
    expect((await history(agent)).map((h) => h.kind)).toEqual(['released', 'on_hold']);
  });

  it('bank details: finance and admin only, digits only, masked in the audit log, borrower told', async () => {
    const { id, agent } = await runningLoan();
    expect(
      (
        await officer.post(`/api/staff/loans/${id}/bank-details`, {
          bankName: 'BPI',
          accountNumber: '1',
          reason: 'r',
        })
      ).status,
    ).toBe(403);
    const bad = await finance.post(`/api/staff/loans/${id}/bank-details`, {
      bankName: 'BPI',
      accountNumber: '12-34',
      reason: 'r',
    });
    expect(bad.status).toBe(400);
    const ok = await finance.post(`/api/staff/loans/${id}/bank-details`, {
      bankName: 'BPI',
      accountNumber: '001234567890',
      reason: 'Borrower called',
    });
    expect(ok.body).toMatchObject({ bankName: 'BPI', accountNumber: '001234567890' });
    const audit = await storedAuditEvent(t.db, { loanId: id });
    expect(JSON.stringify(audit.changes)).not.toContain('001234567890');
    expect(audit.changes.accountNumber).toEqual({ before: '****4567', after: '****7890' });
    expect((await history(agent))[0]!.kind).toBe('bank_changed');
  });

  it('credit score and amount: validated, audited, amount never below withdrawn', async () => {
    const { id, agent, phone } = await runningLoan();
    expect(
      (await officer.post(`/api/staff/loans/${id}/credit-score`, { creditScore: 5000, reason: 'r' })).status,
    ).toBe(400);
    expect(
      (await officer.post(`/api/staff/loans/${id}/credit-score`, { creditScore: 720, reason: 'Paid early' }))
        .body.creditScore,
    ).toBe(720);
    await seedRequestedDisbursement(t.db, id, 9_000_000);
    const low = await officer.post(`/api/staff/loans/${id}/amount`, { amount: 80000, reason: 'r' });
    expect(low.body.error).toMatchObject({
      code: 'AMOUNT_BELOW_WITHDRAWN',
      message: 'The amount cannot be less than what has already been withdrawn (₱90,000.00).',
      params: { amountMinor: 9_000_000 },
    });
    const offStep = await officer.post(`/api/staff/loans/${id}/amount`, { amount: 95000, reason: 'r' });
    expect(offStep.body.error.message).toBe('Please enter a valid loan amount and loan period.');
    const ok = await officer.post(`/api/staff/loans/${id}/amount`, { amount: 200000, reason: 'Top-up' });
    // A raise is proposed to the borrower and binds once they accept it (docs/decisions/018).
    expect(ok.body).toMatchObject({ approvedAmountMinor: 10_000_000, termsChangePending: true });
    expect((await acceptProposedTerms(t, agent, phone)).status).toBe(200);
    expect((await officer.get(`/api/staff/applications/${id}`)).body).toMatchObject({
      approvedAmountMinor: 20_000_000,
      availableMinor: 11_000_000,
      monthlyPaymentMinor: 1_891_192,
    });
  });

  it('reset password: admin only; sessions end, the old password stops working, and the borrower gets a code by SMS (staff see none)', async () => {
    const { id, agent, phone, password, user } = await runningLoan();
    expect((await officer.post(`/api/staff/loans/${id}/reset-password`, { reason: 'r' })).status).toBe(403);
    const reset = await admin.post(`/api/staff/loans/${id}/reset-password`, { reason: 'Forgot password' });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toEqual({ codeSent: true });
    expect((await agent.get('/api/me')).body.user).toBeNull();
    expect((await t.agent().post('/api/auth/login', { identifier: phone, password })).status).toBe(401);

    const sms = t.deps.notifier.outbox?.(phone)[0];
    expect(sms).toMatchObject({ purpose: 'password_reset' });
    expect(sms?.text).toContain('"Forgot password?"');
    const code = await t.latestCode(phone);
    expect(reset.text).not.toContain(code);
    const audit = await storedAuditEvent(t.db, { action: 'user.reset_password', targetId: user.id });
    expect(audit).toMatchObject({ reason: 'Forgot password', loan_id: id, actor_role: 'admin' });
    expect(JSON.stringify(audit.changes)).not.toContain(code);

    // The borrower chooses a new password with the code, as "Forgot password?" does.
    const newPassword = 'a fresh start 2026';
    const chosen = await t.agent().post('/api/auth/password-reset', {
      phone,
      code,
      password: newPassword,
      confirmPassword: newPassword,
    });
    expect(chosen.status, chosen.text).toBe(200);
    const fresh = await t.loginAs(phone, newPassword);
    expect((await fresh.get('/api/me')).body.user.mustChangePassword).toBe(false);
    expect((await history(fresh))[0]).toMatchObject({ kind: 'password_reset' });
  });

  it('messages reach the borrower history', async () => {
    const { id, agent } = await runningLoan();
    expect(
      (
        await officer.post(`/api/staff/loans/${id}/message`, {
          message: 'Your first payment is due soon',
          reason: 'Reminder',
        })
      ).status,
    ).toBe(200);
    expect((await history(agent))[0]).toMatchObject({
      kind: 'message',
      message: 'Your first payment is due soon',
    });
  });

  it('refuses actions on loans that are not running', async () => {
    const { id: pending } = await seedBorrowerWithApplication(t);
    const response = await officer.post(`/api/staff/loans/${pending}/message`, { message: 'x', reason: 'y' });
    expect(response.status).toBe(404);
  });
});
