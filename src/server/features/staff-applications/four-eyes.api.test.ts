import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test-support/api-assertions';
import { seedApplication } from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

/** Four-eyes approval above the configured threshold (₱100,000 by default; docs/decisions/018). */
let t: TestApp;
let first: Agent;
let firstName: string;
let second: Agent;
let finance: Agent;

beforeAll(async () => {
  t = await createTestApp();
  const o = await t.createUser({ role: 'officer' });
  firstName = o.user.username!;
  first = await t.loginAs(o.user.username!, o.password);
  second = await t.signInStaff('admin');
  finance = await t.signInStaff('finance');
});
afterAll(() => t.close());

async function application(amountMinor: number) {
  const { user, phone } = await t.signUpBorrower();
  return seedApplication(t.db, { borrowerId: user.id, phone, amountMinor, status: 'pending' });
}
const auditActions = async (id: string) =>
  (
    await t.db
      .selectFrom('audit_events')
      .select(['action', 'actor_username'])
      .where('loan_id', '=', id)
      .orderBy('id')
      .execute()
  ).map((e) => `${e.action} by ${e.actor_username}`);

describe('four-eyes approval', () => {
  it('approves at or below the threshold with one approval, as before', async () => {
    const id = await application(10_000_000);
    const approved = await first.post(`/api/staff/applications/${id}/approve`, { creditScore: 600 });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', firstApprovedBy: null });
  });

  it('above it, a first approval waits for a different staff member, who confirms it', async () => {
    const id = await application(10_001_000);
    const once = await first.post(`/api/staff/applications/${id}/approve`, { creditScore: 640 });
    expect(once.status, once.text).toBe(200);
    expect(once.body).toMatchObject({
      status: 'pending',
      firstApprovedBy: firstName,
      approvedAmountMinor: null,
    });
    expect(once.body.firstApprovedAt).toBeTruthy();
    const listed = await finance.get('/api/staff/applications/pending');
    expect(listed.body.items.find((i: { id: string }) => i.id === id)).toMatchObject({
      firstApprovedBy: firstName,
    });

    expectError(
      await first.post(`/api/staff/applications/${id}/confirm-approval`),
      403,
      'OWN_APPROVAL_CONFIRM',
    );
    expectError(
      await first.post(`/api/staff/applications/${id}/approve`, {}),
      409,
      'AWAITING_SECOND_APPROVAL',
    );
    expectError(
      await second.post(`/api/staff/applications/${id}/approve`, {}),
      409,
      'AWAITING_SECOND_APPROVAL',
    );
    expect((await finance.post(`/api/staff/applications/${id}/confirm-approval`)).status).toBe(403);

    const confirmed = await second.post(`/api/staff/applications/${id}/confirm-approval`);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({
      status: 'approved',
      approvedAmountMinor: 10_001_000,
      creditScore: 640,
    });
    expect(confirmed.body.decidedBy).not.toBe(firstName);
    const actions = await auditActions(id);
    expect(actions).toHaveLength(2);
    expect(actions[0]).toBe(`application.first_approve by ${firstName}`);
    expect(actions[1]).toMatch(/^application\.confirm_approval by /);
    expect(actions[1]).not.toContain(firstName);
  });

  it('refuses a confirmation when nothing awaits one', async () => {
    const id = await application(20_000_000);
    expectError(
      await second.post(`/api/staff/applications/${id}/confirm-approval`),
      409,
      'NOT_AWAITING_SECOND_APPROVAL',
    );
  });

  it('either staff member can reject instead, with a reason', async () => {
    for (const rejecter of [() => first, () => second]) {
      const id = await application(20_000_000);
      await first.post(`/api/staff/applications/${id}/approve`, {});
      const rejected = await rejecter().post(`/api/staff/applications/${id}/reject`, {
        reason: 'Second look',
      });
      expect(rejected.status, rejected.text).toBe(200);
      expect(rejected.body.status).toBe('rejected');
      expectError(
        await second.post(`/api/staff/applications/${id}/confirm-approval`),
        409,
        'ALREADY_DECIDED',
      );
    }
  });

  it('a change to the terms after the first approval sets it aside', async () => {
    const id = await application(20_000_000);
    await first.post(`/api/staff/applications/${id}/approve`, {});
    const changed = await second.post(`/api/staff/applications/pending/${id}/terms`, {
      amount: 150000,
      termMonths: 12,
      borrowerRequested: true,
      reason: 'Borrower asked for less',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ amountMinor: 15_000_000, firstApprovedBy: null });
  });

  it('20 simultaneous confirmations by 20 staff members: exactly one wins', async () => {
    const confirmers: Agent[] = [];
    for (let i = 0; i < 20; i++) {
      const u = await t.createUser({ role: i % 2 ? 'officer' : 'admin' });
      confirmers.push(await t.loginAs(u.user.username!, u.password));
    }
    const id = await application(50_000_000);
    await first.post(`/api/staff/applications/${id}/approve`, {});
    const results = await Promise.all(
      confirmers.map((c) => c.post(`/api/staff/applications/${id}/confirm-approval`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 409, 'ALREADY_DECIDED');
    const confirmations = await t.db
      .selectFrom('audit_events')
      .select('id')
      .where('loan_id', '=', id)
      .where('action', '=', 'application.confirm_approval')
      .execute();
    expect(confirmations).toHaveLength(1);
    const notices = await t.db
      .selectFrom('borrower_events')
      .select('id')
      .where('application_id', '=', id)
      .where('kind', '=', 'approved')
      .execute();
    expect(notices).toHaveLength(1);
  });
});
