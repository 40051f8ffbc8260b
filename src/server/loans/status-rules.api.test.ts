import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoanStatus } from '../../domain/loan/status';
import { seedBorrowerWithApplication } from '../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../test-support/test-app';
import { sendWithdrawalCode } from '../test-support/withdrawal';

/**
 * A rejected or closed loan is finished: no servicing action, no withdrawal and no new decision or terms
 * may touch it (the domain's status rules, checked inside each transaction). Every refusal must leave the
 * record, its audit trail, the borrower's history and the disbursements exactly as they were.
 */
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

async function loanIn(status: LoanStatus) {
  const { borrower: b, id } = await seedBorrowerWithApplication(t, { status });
  return { id, ...b, agent: await t.loginAs(b.phone, b.password) };
}

/** Everything a refused action could have changed. */
async function snapshot(id: string) {
  const [row, audit, history, disbursements] = await Promise.all([
    t.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    t.db.selectFrom('audit_events').select('id').where('loan_id', '=', id).execute(),
    t.db.selectFrom('borrower_events').select('id').where('application_id', '=', id).execute(),
    t.db.selectFrom('disbursements').selectAll().where('application_id', '=', id).execute(),
  ]);
  return JSON.parse(JSON.stringify({ row, audit, history, disbursements }));
}

const finished = ['rejected', 'closed'] as const;

describe.each(finished)('a %s loan', (status) => {
  it('refuses every servicing action as not found and changes nothing', async () => {
    const { id } = await loanIn(status);
    const before = await snapshot(id);
    // The amount goes through the same Update Loan rule as the Approved list, answered "not found".
    const calls: [Agent, string, object, string][] = [
      [officer, 'status', { action: 'hold', message: 'Call us', reason: 'r' }, 'LOAN_NOT_FOUND'],
      [officer, 'status', { action: 'release', reason: 'r' }, 'LOAN_NOT_FOUND'],
      [
        finance,
        'bank-details',
        { bankName: 'BPI', accountNumber: '1234567890', reason: 'r' },
        'LOAN_NOT_FOUND',
      ],
      [officer, 'credit-score', { creditScore: 700, reason: 'r' }, 'LOAN_NOT_FOUND'],
      [officer, 'message', { message: 'Hello', reason: 'r' }, 'LOAN_NOT_FOUND'],
      [officer, 'amount', { amount: 120000, reason: 'r' }, 'NOT_FOUND'],
    ];
    for (const [agent, path, body, code] of calls) {
      const response = await agent.post(`/api/staff/loans/${id}/${path}`, body);
      expect({ path, status: response.status, code: response.body.error?.code }).toEqual({
        path,
        status: 404,
        code,
      });
    }
    expect(await snapshot(id)).toEqual(before);
  });

  it('refuses a new decision or new terms and changes nothing', async () => {
    const { id } = await loanIn(status);
    const before = await snapshot(id);
    const decided = [
      await officer.post(`/api/staff/applications/${id}/approve`, { creditScore: 600 }),
      await admin.post(`/api/staff/applications/${id}/reject`, { reason: 'again' }),
      await officer.post(`/api/staff/applications/pending/${id}/terms`, { amount: 120000, termMonths: 12 }),
    ];
    for (const response of decided) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('ALREADY_DECIDED');
    }
    const terms = await officer.post(`/api/staff/applications/approved/${id}/terms`, {
      amount: 120000,
      termMonths: 12,
    });
    expect(terms.status).toBe(404);
    expect(terms.body.error.code).toBe('NOT_FOUND');
    expect(await snapshot(id)).toEqual(before);
  });

  it('lets its borrower neither ask for a withdrawal code nor withdraw', async () => {
    const { id, agent, phone } = await loanIn(status);
    const before = await snapshot(id);
    const code = await agent.post('/api/wallet/withdrawal-code', { amount: 1000 });
    expect(code.status).toBe(404);
    expect(code.body.error.code).toBe('LOAN_NOT_FOUND');
    const sent = await t.local().get(`/api/dev/outbox?phone=${phone}`);
    expect(sent.body.messages.filter((m: { purpose: string }) => m.purpose === 'withdrawal')).toEqual([]);
    const withdrawal = await agent.post('/api/wallet/withdrawals', {
      amount: 1000,
      code: '123456',
      idempotencyKey: `status-rules-${status}`,
    });
    expect(withdrawal.status).toBe(404);
    expect(withdrawal.body.error.code).toBe('LOAN_NOT_FOUND');
    expect(await snapshot(id)).toEqual(before);
  });

  it('refuses a withdrawal whose code was sent while the loan still ran', async () => {
    const { id, agent, phone } = await loanIn('approved');
    expect((await sendWithdrawalCode(agent, 1000)).status).toBe(200);
    const code = await t.latestCode(phone);
    await t.db.updateTable('applications').set({ status }).where('id', '=', id).execute();
    const before = await snapshot(id);
    const withdrawal = await agent.post('/api/wallet/withdrawals', {
      amount: 1000,
      code,
      idempotencyKey: `status-rules-late-${status}`,
    });
    expect(withdrawal.status).toBe(404);
    expect(withdrawal.body.error.code).toBe('LOAN_NOT_FOUND');
    expect(await snapshot(id)).toEqual(before);
  });
});

describe('a running loan', () => {
  it('is still serviced (the refusals above are about the status, not the routes)', async () => {
    const { id } = await loanIn('on_hold');
    const release = await officer.post(`/api/staff/loans/${id}/status`, { action: 'release', reason: 'r' });
    expect(release.status).toBe(200);
    expect(release.body.status).toBe('approved');
    const message = await officer.post(`/api/staff/loans/${id}/message`, { message: 'Hi', reason: 'r' });
    expect(message.status).toBe(200);
  });
});
