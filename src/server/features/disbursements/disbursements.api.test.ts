import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBorrowerWithApplication } from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

/**
 * Finance sends each payout by hand, so it must see the full destination; lists keep it masked and every
 * reveal is audited (SPEC §8), without the number itself in the audit log.
 */
let t: TestApp;
let finance: Agent;
let financeId: string;
let officer: Agent;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp();
  const f = await t.createUser({ role: 'finance' });
  financeId = f.user.id;
  finance = await t.loginAs(f.user.username!, f.password);
  officer = await t.signInStaff('officer');
  admin = await t.signInStaff('admin');
});
afterAll(() => t.close());

const ACCOUNT = '001234567890123';

async function payout() {
  const { borrower: b, id: loanId } = await seedBorrowerWithApplication(t, {
    status: 'approved',
    fullName: 'Payout Person',
  });
  const row = await t.db
    .insertInto('disbursements')
    .values({
      application_id: loanId,
      amount: 1_500_000,
      bank_name: 'BDO Unibank',
      account_number: ACCOUNT,
      code_verified: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, loanId, borrower: await t.loginAs(b.phone, b.password) };
}

const auditOf = (id: string) =>
  t.db.selectFrom('audit_events').selectAll().where('target_id', '=', id).orderBy('id').execute();

describe('payout destination', () => {
  it('lists show only the last four digits', async () => {
    const { id } = await payout();
    const list = await finance.get('/api/staff/disbursements?name=payout person');
    const item = list.body.items.find((i: { id: string }) => i.id === id);
    expect(item).toMatchObject({ bankName: 'BDO Unibank', accountNumberLast4: '0123' });
    expect(list.text).not.toContain(ACCOUNT);
  });

  it('finance sees the full destination; the reveal is audited without the number', async () => {
    const { id, loanId } = await payout();
    const reveal = await finance.post(`/api/staff/disbursements/${id}/destination`);
    expect(reveal.status, reveal.text).toBe(200);
    expect(reveal.body).toEqual({ id, bankName: 'BDO Unibank', accountNumber: ACCOUNT });
    expect(reveal.headers['cache-control']).toBe('private, no-store');

    const events = await auditOf(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'disbursement.reveal_destination',
      actor_id: financeId,
      actor_role: 'finance',
      target_type: 'disbursement',
      loan_id: loanId,
    });
    expect(JSON.stringify(events[0])).not.toContain(ACCOUNT);

    // Every reveal leaves its own trace, by whoever asked.
    expect((await admin.post(`/api/staff/disbursements/${id}/destination`)).status).toBe(200);
    expect((await auditOf(id)).map((e) => e.actor_role)).toEqual(['finance', 'admin']);
  });

  it('shows where the payout was requested to, even after the bank details changed', async () => {
    const { id, loanId } = await payout();
    const changed = await finance.post(`/api/staff/loans/${loanId}/bank-details`, {
      bankName: 'BPI',
      accountNumber: '9999888877',
      reason: 'Borrower called',
    });
    expect(changed.status).toBe(200);
    const reveal = await finance.post(`/api/staff/disbursements/${id}/destination`);
    expect(reveal.body).toMatchObject({ bankName: 'BDO Unibank', accountNumber: ACCOUNT });
  });

  it('is refused to officers and borrowers, and to nobody leaves a trace', async () => {
    const { id, borrower } = await payout();
    for (const agent of [officer, borrower]) {
      const response = await agent.post(`/api/staff/disbursements/${id}/destination`);
      expect(response.status).toBe(403);
      expect(response.text).not.toContain(ACCOUNT);
    }
    expect((await t.agent().post(`/api/staff/disbursements/${id}/destination`)).status).toBe(401);
    const unknown = await finance.post(
      '/api/staff/disbursements/00000000-0000-4000-8000-000000000000/destination',
    );
    expect(unknown.status).toBe(404);
    expect(await auditOf(id)).toEqual([]);
  });
});
