import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../domain/date-text';
import {
  loanNumberOf,
  seedApplication,
  seedBorrowerWithApplication,
  seedPaidDisbursement,
  seedRequestedDisbursement,
  seedUnappliedPayment,
} from './test-support/seed';
import { type Agent, createTestApp, type TestApp } from './test-support/test-app';

/**
 * Every staff write route, called once by an admin on a fresh object, leaves exactly one audit event naming
 * the actor, the action, the target and (where the route takes one) the reason. A new staff write route
 * without an entry here fails the test.
 */
let t: TestApp;
let admin: Agent;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  const a = await t.createUser({ role: 'admin' });
  adminId = a.user.id;
  admin = await t.loginAs(a.user.username!, a.password);
});
afterAll(() => t.close());

async function loan(status: 'pending' | 'approved' = 'approved') {
  const b = await t.signUpBorrower();
  return seedApplication(t.db, { borrowerId: b.user.id, phone: b.phone, status });
}

async function disbursement() {
  return seedRequestedDisbursement(t.db, await loan(), 100_000);
}

/** A loan paid out ₱1,000 today, so it takes repayments. */
async function paidOutLoan() {
  const id = await loan();
  await seedPaidDisbursement(t.db, id, { amountMinor: 100_000, reference: 'PAYOUT-1' });
  return id;
}

let references = 0;
const nextReference = () => `COV-${++references}`;

async function repayment() {
  const id = await paidOutLoan();
  const row = await t.db
    .insertInto('repayments')
    .values({
      application_id: id,
      amount: 10_000,
      received_on: todayIn('Asia/Manila'),
      channel: 'cash',
      reference: nextReference(),
      source: 'webhook',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function user() {
  return (await t.createUser({ role: 'officer' })).user.id;
}

const reason = 'audit coverage';

/** A payment the provider reported for no known loan, kept for finance. */
const unappliedPayment = () => seedUnappliedPayment(t.db, nextReference());

/** A complaint just filed by a new borrower. */
async function complaint() {
  const b = await t.signUpBorrower();
  const row = await t.db
    .insertInto('complaints')
    .values({
      reference: `C-COV-${nextReference()}`,
      borrower_id: b.user.id,
      category: 'other',
      text: 'Coverage complaint',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A loan product's terms (docs/decisions/034): the SPEC §6 amounts and prices. */
function productTerms() {
  return {
    names: { en: 'Coverage loan', fil: 'Pautang', zh: '贷款', km: 'ប្រាក់កម្ចី' },
    borrowerAmount: { min: 10_000, max: 300_000, step: 10_000 },
    staffAmount: { min: 50_000, max: 2_000_000, step: 10_000 },
    termsMonths: [6, 12],
    defaultTermMonths: 6,
    monthlyRateBp: 200,
    fees: { flatMinor: 0, percentBp: 0, collection: 'deducted_from_payout' },
    lateChargeMonthlyBp: 0,
    graceDays: 3,
    fourEyesThresholdMinor: 10_000_000,
    eligibility: { firstLoanMaxAmount: 300_000, repeat: null },
  };
}

/** A product just created by an admin (version 1). */
async function product() {
  const created = await admin.post('/api/staff/products', {
    code: `cov-${nextReference().toLowerCase()}`,
    terms: productTerms(),
  });
  if (created.status !== 201)
    throw new Error(`creating a product answered ${created.status}: ${created.text}`);
  return created.body.id as string;
}

const loanNumber = (id: string) => loanNumberOf(t.db, id);

/**
 * route → how to call it once: the target id, the body, the reason it records (if any) and, where one call
 * is several audited changes, their actions (else exactly one event).
 */
const writes: Record<
  string,
  () => Promise<{ path: string; body?: unknown; method?: string; reason?: string; actions?: string[] }>
> = {
  'POST /api/staff/applications/pending/:id/terms': async () => ({
    path: `/api/staff/applications/pending/${await loan('pending')}/terms`,
    body: { amount: 120000, termMonths: 12, reason },
    reason,
  }),
  'POST /api/staff/applications/approved/:id/terms': async () => ({
    path: `/api/staff/applications/approved/${await loan()}/terms`,
    body: { amount: 120000, termMonths: 12, reason },
    reason,
  }),
  'POST /api/staff/applications/:id/approve': async () => ({
    path: `/api/staff/applications/${await loan('pending')}/approve`,
    body: { creditScore: 600 },
  }),
  'POST /api/staff/applications/:id/confirm-approval': async () => {
    // Above the four-eyes threshold, approved once by another officer (docs/decisions/018).
    const { id } = await seedBorrowerWithApplication(t, {
      status: 'pending',
      amountMinor: 20_000_000,
    });
    const first = await t.createUser({ role: 'officer' });
    await t.db
      .updateTable('applications')
      .set({
        first_approved_by: first.user.id,
        first_approved_at: new Date(),
        first_approval_credit_score: 600,
      })
      .where('id', '=', id)
      .execute();
    return { path: `/api/staff/applications/${id}/confirm-approval` };
  },
  'POST /api/staff/applications/:id/terms-change/withdraw': async () => {
    const id = await loan('pending');
    const proposed = await admin.post(`/api/staff/applications/pending/${id}/terms`, {
      amount: 150000,
      termMonths: 12,
    });
    expect(proposed.body.termsChangePending).toBe(true);
    return { path: `/api/staff/applications/${id}/terms-change/withdraw`, body: { reason }, reason };
  },
  'POST /api/staff/applications/:id/reject': async () => ({
    path: `/api/staff/applications/${await loan('pending')}/reject`,
    body: { reason },
    reason,
  }),
  'POST /api/staff/disbursements/:id/paid': async () => ({
    path: `/api/staff/disbursements/${await disbursement()}/paid`,
    body: { reference: 'TRX-1' },
  }),
  'POST /api/staff/disbursements/:id/destination': async () => ({
    path: `/api/staff/disbursements/${await disbursement()}/destination`,
  }),
  'POST /api/staff/disbursements/:id/failed': async () => ({
    path: `/api/staff/disbursements/${await disbursement()}/failed`,
    body: { reason },
    reason,
  }),
  'POST /api/staff/loans/:id/repayments': async () => ({
    path: `/api/staff/loans/${await paidOutLoan()}/repayments`,
    body: { amount: '100', receivedOn: todayIn('Asia/Manila'), channel: 'cash', reference: nextReference() },
  }),
  // ₱1,500 received on a ₱1,000 loan paid out today: ₱500 held for the borrower, sent back.
  'POST /api/staff/loans/:id/refunds': async () => {
    const id = await paidOutLoan();
    await t.db
      .insertInto('repayments')
      .values({
        application_id: id,
        amount: 150_000,
        received_on: todayIn('Asia/Manila'),
        channel: 'cash',
        reference: nextReference(),
        source: 'webhook',
      })
      .execute();
    return { path: `/api/staff/loans/${id}/refunds`, body: { amount: '500', reference: nextReference() } };
  },
  'POST /api/staff/repayments/:id/reverse': async () => ({
    path: `/api/staff/repayments/${await repayment()}/reverse`,
    body: { reason },
    reason,
  }),
  // The kept payment becomes a repayment (its own audit event) and is marked applied (another).
  'POST /api/staff/unapplied-payments/:id/apply': async () => ({
    path: `/api/staff/unapplied-payments/${await unappliedPayment()}/apply`,
    body: { loan: await loanNumber(await paidOutLoan()) },
    actions: ['repayment.record', 'payment.apply'],
  }),
  'POST /api/staff/unapplied-payments/:id/return': async () => ({
    path: `/api/staff/unapplied-payments/${await unappliedPayment()}/return`,
    body: { reason },
    reason,
  }),
  'POST /api/staff/loans/:id/status': async () => ({
    path: `/api/staff/loans/${await loan()}/status`,
    body: { action: 'hold', message: 'Call us', reason },
    reason,
  }),
  'POST /api/staff/loans/:id/bank-details': async () => ({
    path: `/api/staff/loans/${await loan()}/bank-details`,
    body: { bankName: 'BPI', accountNumber: '1234567890', reason },
    reason,
  }),
  'POST /api/staff/loans/:id/credit-score': async () => ({
    path: `/api/staff/loans/${await loan()}/credit-score`,
    body: { creditScore: 700, reason },
    reason,
  }),
  'POST /api/staff/loans/:id/language': async () => ({
    path: `/api/staff/loans/${await loan()}/language`,
    body: { language: 'km', reason },
    reason,
  }),
  'POST /api/staff/loans/:id/message': async () => ({
    path: `/api/staff/loans/${await loan()}/message`,
    body: { message: 'Hello', reason },
    reason,
  }),
  'POST /api/staff/loans/:id/amount': async () => ({
    path: `/api/staff/loans/${await loan()}/amount`,
    body: { amount: 150000, reason },
    reason,
  }),
  'POST /api/staff/loans/:id/reset-password': async () => ({
    path: `/api/staff/loans/${await loan()}/reset-password`,
    body: { reason },
    reason,
  }),
  'POST /api/admin/users': async () => ({
    path: '/api/admin/users',
    body: {
      username: `cov${Date.now().toString(36)}`,
      password: 'tamaraw herd 9',
      phone: t.nextPhone(),
      role: 'Finance',
    },
  }),
  'POST /api/admin/users/:id': async () => ({
    path: `/api/admin/users/${await user()}`,
    body: { phone: t.nextPhone(), password: 'sampaguita 12' },
  }),
  'POST /api/admin/users/:id/reset-password': async () => ({
    path: `/api/admin/users/${await user()}/reset-password`,
    body: { reason },
    reason,
  }),
  'POST /api/admin/users/:id/reactivate': async () => ({
    path: `/api/admin/users/${(await t.createUser({ role: 'officer', status: 'deactivated' })).user.id}/reactivate`,
    body: { reason },
    reason,
  }),
  'POST /api/admin/users/:id/unlock': async () => {
    const id = await user();
    await t.db
      .insertInto('login_throttle')
      .values({
        key: `account:${id}`,
        failures: 5,
        window_started_at: new Date(),
        locked_until: new Date(Date.now() + 60_000),
      })
      .execute();
    return { path: `/api/admin/users/${id}/unlock` };
  },
  'DELETE /api/admin/users/:id': async () => ({ path: `/api/admin/users/${await user()}`, method: 'DELETE' }),
  'POST /api/staff/complaints/:id/replies': async () => ({
    path: `/api/staff/complaints/${await complaint()}/replies`,
    body: { message: 'We are looking into it.' },
  }),
  'POST /api/staff/complaints/:id/assign': async () => ({
    path: `/api/staff/complaints/${await complaint()}/assign`,
    body: { assigneeId: adminId },
  }),
  'POST /api/staff/complaints/:id/resolve': async () => ({
    path: `/api/staff/complaints/${await complaint()}/resolve`,
    body: { note: reason },
  }),
  'POST /api/admin/users/:id/reset-second-factor': async () => ({
    path: `/api/admin/users/${await user()}/reset-second-factor`,
    body: { reason },
    reason,
  }),
  'POST /api/staff/products': async () => ({
    path: '/api/staff/products',
    body: { code: `cov-${nextReference().toLowerCase()}`, terms: productTerms() },
  }),
  'POST /api/staff/products/:id/versions': async () => ({
    path: `/api/staff/products/${await product()}/versions`,
    body: { basedOnVersion: 1, terms: { ...productTerms(), graceDays: 5 }, reason },
    reason,
  }),
  'POST /api/staff/products/:id/retire': async () => ({
    path: `/api/staff/products/${await product()}/retire`,
    body: { basedOnVersion: 1, reason },
    reason,
  }),
  'POST /api/staff/products/:id/reactivate': async () => {
    const id = await product();
    await admin.post(`/api/staff/products/${id}/retire`, { basedOnVersion: 1, reason: 'setup' });
    return { path: `/api/staff/products/${id}/reactivate`, body: { basedOnVersion: 2, reason }, reason };
  },
};

/**
 * SPEC §2.7 and §5 ("A reason is required."): the staff writes that must say why. The server refuses each
 * without a reason (missing or blank) and records the reason in the audit event. Update Loan (terms) takes
 * an optional note, approval a credit score, Mark Paid a reference, a repayment its reference.
 */
const reasonRequired = [
  'POST /api/staff/applications/:id/reject',
  'POST /api/staff/disbursements/:id/failed',
  'POST /api/staff/repayments/:id/reverse',
  'POST /api/staff/unapplied-payments/:id/return',
  'POST /api/staff/loans/:id/status',
  'POST /api/staff/loans/:id/bank-details',
  'POST /api/staff/loans/:id/credit-score',
  'POST /api/staff/loans/:id/language',
  'POST /api/staff/loans/:id/message',
  'POST /api/staff/loans/:id/amount',
  'POST /api/staff/loans/:id/reset-password',
  'POST /api/admin/users/:id/reset-password',
  'POST /api/admin/users/:id/reactivate',
  'POST /api/staff/products/:id/retire',
  'POST /api/staff/products/:id/reactivate',
];

const isStaffWrite = (method: string, url: string) =>
  method !== 'GET' && (url.startsWith('/api/staff/') || url.startsWith('/api/admin/'));

describe('audit coverage', () => {
  it('lists every staff write route', () => {
    const routes = t.app.apiRoutes
      .filter((r) => isStaffWrite(r.method, r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(routes.sort()).toEqual(Object.keys(writes).sort());
  });

  it.each(Object.keys(writes))('%s leaves exactly one audit event', async (key) => {
    const [method] = key.split(' ');
    const call = await writes[key]!();
    const before = await t.db
      .selectFrom('audit_events')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const response = await admin.request(
      call.method ?? method!,
      call.path,
      call.body ? { body: call.body } : {},
    );
    expect(response.status, response.text).toBeLessThan(300);
    const events = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('id', '>', before?.id ?? 0)
      .execute();
    if (call.actions) expect(events.map((e) => e.action)).toEqual(call.actions);
    else expect(events).toHaveLength(1);
    for (const event of events) {
      expect(event.actor_id).toBe(adminId);
      expect(event.actor_role).toBe('admin');
      expect(event.action).toMatch(/^[a-z]+\.[a-z_]+$/);
      expect(event.target_id).toBeTruthy();
      expect(event.ip).toBeTruthy();
    }
    if (call.reason) expect(events[0]!.reason).toBe(call.reason);
    if (reasonRequired.includes(key)) expect(events.some((e) => e.reason === reason)).toBe(true);
  });

  it.each(reasonRequired)('%s refuses without a reason and changes nothing', async (key) => {
    const [method] = key.split(' ');
    const call = await writes[key]!();
    expect(call.reason, 'the coverage call sends a reason').toBe(reason);
    const { reason: _sent, ...withoutReason } = call.body as Record<string, unknown>;
    const last = async () =>
      (await t.db.selectFrom('audit_events').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst())
        ?.id ?? 0;
    const before = await last();
    for (const body of [
      withoutReason,
      { ...withoutReason, reason: '   ' },
      { ...withoutReason, reason: null },
    ]) {
      const response = await admin.request(call.method ?? method!, call.path, { body });
      expect(response.status, `${JSON.stringify(body)}: ${response.text}`).toBe(400);
      expect(response.body.error.code).toBe('REASON_REQUIRED');
      expect(response.body.error.message).toBe('A reason is required.');
    }
    expect(await last()).toBe(before);
  });

  it('refuses UPDATE and DELETE on the audit table', async () => {
    const any = await t.db.selectFrom('audit_events').select('id').executeTakeFirstOrThrow();
    await expect(
      t.db.updateTable('audit_events').set({ reason: 'tampered' }).where('id', '=', any.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(t.db.deleteFrom('audit_events').where('id', '=', any.id).execute()).rejects.toThrow(
      /append-only/,
    );
  });
});
