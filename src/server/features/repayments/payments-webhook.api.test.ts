import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverPaymentWebhook } from '../../test-support/payment-webhook';
import {
  loanNumberOf,
  seedBorrowerWithApplication,
  seedPaidDisbursement,
  storedAuditEvent,
} from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';
import { signPaymentWebhook } from './webhook-signature';

/**
 * The payment provider's webhook (issue #10) and finance resolving what it could not apply: signature over
 * the raw body, replay window, idempotency by the provider's reference, unapplied payments kept, applied or
 * returned once.
 */
const secret = 'test-webhook-secret-0123456789-abcdefghijklmnop';
let t: TestApp;
let finance: Agent;
let finance2: Agent;
let officer: Agent;

beforeAll(async () => {
  t = await createTestApp({ config: { paymentsWebhook: { secret, channel: 'gcash' } } });
  finance = await t.signInStaff('finance');
  finance2 = await t.signInStaff('finance');
  officer = await t.signInStaff('officer');
});
afterAll(() => t.close());

let references = 0;
const providerRef = () => `PRV-${++references}`;
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** A borrower's loan, paid out ₱100,000 today (unless pending), and its loan number. */
async function loan(status: 'approved' | 'pending' = 'approved', fullName = 'Test Borrower') {
  const { borrower: b, id } = await seedBorrowerWithApplication(t, { status, fullName });
  if (status === 'approved') {
    await seedPaidDisbursement(t.db, id);
  }
  const loanNumber = await loanNumberOf(t.db, id);
  return { id, loanNumber, phone: b.phone };
}

const payload = (overrides: Record<string, unknown> = {}) => ({
  reference: providerRef(),
  paymentReference: 'HL-00-000000',
  amountMinor: 150_000,
  currency: 'PHP',
  receivedAt: new Date().toISOString(),
  ...overrides,
});

interface DeliverOptions {
  timestamp?: string;
  key?: string;
  /** Sent instead of the signed body (a tampered request). */
  sentBody?: string;
  headers?: Record<string, string | undefined>;
}

function deliver(body: unknown, options: DeliverOptions = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const timestamp = options.timestamp ?? nowSeconds();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-hiram-timestamp': timestamp,
    'x-hiram-signature': signPaymentWebhook(options.key ?? secret, timestamp, raw),
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return t.agent().request('POST', '/api/payments/webhook', { raw: options.sentBody ?? raw, headers });
}

async function counts() {
  const [repayments, unapplied, audit] = await Promise.all([
    t.db.selectFrom('repayments').select('id').execute(),
    t.db.selectFrom('unapplied_payments').select('id').execute(),
    t.db.selectFrom('audit_events').select('id').execute(),
  ]);
  return { repayments: repayments.length, unapplied: unapplied.length, audit: audit.length };
}

/** A kept payment as finance's list shows it, on whichever page it is. */
async function listedUnapplied(id: string) {
  for (let page = 1; page <= 20; page++) {
    const list = await finance.get(`/api/staff/unapplied-payments?page=${page}`);
    const item = list.body.items.find((i: { id: string }) => i.id === id);
    if (item || list.body.items.length === 0) return item;
  }
  return undefined;
}

describe('the payment webhook', () => {
  it('turns a signed payment quoting a running loan into a repayment, audited as the system', async () => {
    const { id, loanNumber } = await loan();
    const body = payload({ paymentReference: loanNumber.toLowerCase(), amountMinor: 250_000 });
    const response = await deliver(body);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ outcome: 'applied', reason: null, loanStatus: 'approved' });
    const row = await t.db
      .selectFrom('repayments')
      .selectAll()
      .where('id', '=', response.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      application_id: id,
      amount: 250_000,
      channel: 'gcash',
      reference: body.reference,
      source: 'webhook',
      recorded_by: null,
    });
    const audit = await storedAuditEvent(t.db, { targetId: row.id });
    expect(audit).toMatchObject({
      action: 'repayment.record',
      actor_id: null,
      actor_role: 'system',
      actor_username: 'payments-webhook',
      loan_id: id,
    });
  });

  it('answers a redelivery with the same outcome and creates nothing', async () => {
    const { loanNumber } = await loan();
    const body = payload({ paymentReference: loanNumber });
    const first = await deliver(body);
    expect(first.status, first.text).toBe(200);
    const before = await counts();
    const again = await deliver(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const unknown = payload();
    const kept = await deliver(unknown);
    const keptAgain = await deliver(unknown);
    expect(keptAgain.body).toEqual(kept.body);
    expect(await counts()).toEqual({ ...before, unapplied: before.unapplied + 1, audit: before.audit + 1 });
  });

  it('keeps a known reference with another amount for finance, with both amounts, audited (issue #33)', async () => {
    const { id, loanNumber } = await loan();
    const first = payload({ paymentReference: loanNumber, amountMinor: 250_000 });
    const applied = await deliver(first);
    expect(applied.body.outcome).toBe('applied');
    const before = await counts();

    const other = await deliver({ ...first, amountMinor: 900_000 });
    expect(other.status, other.text).toBe(200);
    expect(other.body).toMatchObject({
      outcome: 'unapplied',
      reason: 'reference_conflict',
      loanStatus: null,
    });
    // Its own redelivery finds it again; the first amount still answers as first answered.
    expect((await deliver({ ...first, amountMinor: 900_000 })).body).toEqual(other.body);
    expect((await deliver(first)).body).toEqual(applied.body);
    expect(await counts()).toEqual({
      repayments: before.repayments,
      unapplied: before.unapplied + 1,
      audit: before.audit + 1,
    });

    expect(await listedUnapplied(other.body.id)).toMatchObject({
      providerReference: first.reference,
      amountMinor: 900_000,
      earlierAmountMinor: 250_000,
      reason: 'reference_conflict',
      status: 'open',
    });
    const audit = await storedAuditEvent(t.db, { targetId: other.body.id });
    expect(audit).toMatchObject({ action: 'payment.receive', actor_role: 'system' });
    expect(audit.changes).toMatchObject({
      amountMinor: { after: 900_000 },
      earlierAmountMinor: { after: 250_000 },
    });

    // Finance, having checked with the provider, applies it: a repayment of its own.
    const done = await finance.post(`/api/staff/unapplied-payments/${other.body.id}/apply`, {
      loan: loanNumber,
    });
    expect(done.status, done.text).toBe(200);
    const repayments = await t.db
      .selectFrom('repayments')
      .select(['amount', 'reference'])
      .where('application_id', '=', id)
      .orderBy('amount')
      .execute();
    expect(repayments).toEqual([
      { amount: 250_000, reference: first.reference },
      { amount: 900_000, reference: `${first.reference}#${other.body.id}` },
    ]);
  });

  it('a kept payment redelivered with another amount is a conflict too', async () => {
    const first = payload({ amountMinor: 40_000 });
    const kept = await deliver(first);
    expect(kept.body).toMatchObject({ outcome: 'unapplied', reason: 'unknown_reference' });
    const other = await deliver({ ...first, amountMinor: 45_000 });
    expect(other.body).toMatchObject({ outcome: 'unapplied', reason: 'reference_conflict' });
    expect(other.body.id).not.toBe(kept.body.id);
    // Resolved, so the queue's first page stays as the tests below expect it.
    for (const id of [kept.body.id, other.body.id]) {
      const sent = await finance.post(`/api/staff/unapplied-payments/${id}/return`, { reason: 'Test done' });
      expect(sent.status, sent.text).toBe(200);
    }
  });

  it('refuses a signed body nested thousands deep with a clear 400 before anything walks it', async () => {
    const before = await counts();
    // 30,000 levels is what fits in the webhook's 64 KiB body limit.
    for (const depth of [33, 5_000, 30_000]) {
      const raw = JSON.stringify(payload()).replace(/}$/, `,"x":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      const response = await deliver(raw);
      expect(response.status, `${depth}: ${response.text}`).toBe(400);
      expect(response.body.error.code).toBe('JSON_TOO_DEEP');
    }
    expect(await counts()).toEqual(before);
    // A payload with a little nesting in its extra fields is still taken.
    const { loanNumber } = await loan();
    const nested = JSON.stringify(payload({ paymentReference: loanNumber })).replace(
      /}$/,
      ',"meta":{"a":[{"b":1}]}}',
    );
    const taken = await deliver(nested);
    expect(taken.body).toMatchObject({ outcome: 'applied' });
  });

  it('refuses a tampered body, a wrong secret and missing headers, changing nothing', async () => {
    const { loanNumber } = await loan();
    const body = payload({ paymentReference: loanNumber });
    const before = await counts();
    const tampered = await deliver(body, { sentBody: JSON.stringify({ ...body, amountMinor: 1 }) });
    expect(tampered.status).toBe(401);
    expect(tampered.body.error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    const wrongKey = await deliver(body, { key: `${secret}-other` });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    const noSignature = await deliver(body, { headers: { 'x-hiram-signature': undefined } });
    expect(noSignature.status).toBe(401);
    expect(noSignature.body.error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    const noTimestamp = await deliver(body, { headers: { 'x-hiram-timestamp': undefined } });
    expect(noTimestamp.status).toBe(401);
    expect(noTimestamp.body.error.code).toBe('WEBHOOK_TIMESTAMP_INVALID');
    // Signed for one timestamp, sent with another.
    const moved = await deliver(body, {
      headers: { 'x-hiram-timestamp': String(Number(nowSeconds()) - 10) },
    });
    expect(moved.status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('refuses a replay: a correctly signed request older than 5 minutes, or from the future', async () => {
    const { loanNumber } = await loan();
    const body = payload({ paymentReference: loanNumber });
    const before = await counts();
    const old = await deliver(body, { timestamp: String(Number(nowSeconds()) - 6 * 60) });
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('WEBHOOK_TIMESTAMP_INVALID');
    const future = await deliver(body, { timestamp: String(Number(nowSeconds()) + 10 * 60) });
    expect(future.status).toBe(401);
    expect(await counts()).toEqual(before);
    expect((await deliver(body, { timestamp: String(Number(nowSeconds()) - 4 * 60) })).status).toBe(200);
  });

  it('refuses a signed body that is not a valid payment, storing nothing', async () => {
    const before = await counts();
    const tomorrow = await deliver(payload({ receivedAt: new Date(Date.now() + 86_400_000).toISOString() }));
    expect(tomorrow.status).toBe(400);
    expect(tomorrow.body.error.fields.receivedAt.code).toBe('REPAYMENT_DATE_IN_FUTURE');
    const notJson = await deliver('{"reference": ');
    expect(notJson.status).toBe(400);
    const noAmount = await deliver(payload({ amountMinor: undefined }));
    expect(noAmount.status).toBe(400);
    const dollars = await deliver(payload({ currency: 'USD' }));
    expect(dollars.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('keeps a payment quoting an unknown loan number as unapplied, with what the provider sent', async () => {
    const body = { ...payload({ paymentReference: 'HL 123 (my loan)' }), extra: { note: 'as sent' } };
    const response = await deliver(body);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      outcome: 'unapplied',
      reason: 'unknown_reference',
      loanStatus: null,
    });
    const row = await t.db
      .selectFrom('unapplied_payments')
      .selectAll()
      .where('id', '=', response.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      provider: 'gcash',
      provider_reference: body.reference,
      amount: 150_000,
      payer_reference: 'HL 123 (my loan)',
      reason: 'unknown_reference',
      status: 'open',
    });
    expect(row.payload).toMatchObject({ extra: { note: 'as sent' } });
    const audit = await storedAuditEvent(t.db, { targetId: row.id });
    expect(audit).toMatchObject({
      action: 'payment.receive',
      actor_role: 'system',
      target_type: 'unapplied_payment',
    });
    // The audit log shows it with the system as the actor.
    const admin = await t.signInStaff('admin');
    const log = await admin.get('/api/admin/audit?action=payment.receive&actor=payments-webhook');
    expect(log.status, log.text).toBe(200);
    expect(log.body.items).toContainEqual(
      expect.objectContaining({ targetId: row.id, actorRole: 'system', actorUsername: 'payments-webhook' }),
    );
  });

  it('records an over-payment (the rest held as credit) and keeps a payment for a loan not taking repayments', async () => {
    const { id, loanNumber } = await loan();
    const over = await deliver(payload({ paymentReference: loanNumber, amountMinor: 20_000_000 }));
    expect(over.status, over.text).toBe(200);
    expect(over.body).toMatchObject({ outcome: 'applied', loanStatus: 'closed' });
    const ledger = (await finance.get(`/api/staff/loans/${id}/ledger`)).body;
    expect(ledger.position.creditMinor).toBe(
      20_000_000 -
        ledger.repayments[0].allocation.principalMinor -
        ledger.repayments[0].allocation.advanceMinor -
        ledger.repayments[0].allocation.interestMinor,
    );
    expect(ledger.position.creditMinor).toBeGreaterThan(0);

    const other = await loan();
    const early = await deliver(
      payload({
        paymentReference: other.loanNumber,
        receivedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      }),
    );
    expect(early.body).toMatchObject({ outcome: 'unapplied', reason: 'before_payout' });

    const pending = await loan('pending');
    const notRunning = await deliver(payload({ paymentReference: pending.loanNumber }));
    expect(notRunning.body).toMatchObject({ outcome: 'unapplied', reason: 'loan_not_running' });
  });

  it('closes the loan when the payment pays it off, in the same request', async () => {
    const { id, loanNumber } = await loan();
    const ledger = await officer.get(`/api/staff/loans/${id}/ledger`);
    const payoff = ledger.body.position.payoffMinor as number;
    const response = await deliver(payload({ paymentReference: loanNumber, amountMinor: payoff }));
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ outcome: 'applied', loanStatus: 'closed' });
    const row = await t.db
      .selectFrom('applications')
      .select(['status', 'closed_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('closed');
    expect(row.closed_at).not.toBeNull();
    const close = await storedAuditEvent(t.db, { loanId: id, action: 'loan.close' });
    expect(close.actor_role).toBe('system');
  });

  it('leaves other routes with the normal JSON parser', async () => {
    const response = await t
      .agent()
      .post('/api/auth/login', { identifier: 'nobody', password: 'wrong-password' });
    expect(response.status).toBe(401);
  });
});

describe('the webhook when not configured', () => {
  it('answers 503 with a clear error', async () => {
    const off = await createTestApp();
    try {
      const response = await deliverPaymentWebhook(off.agent(), secret, payload());
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('PAYMENTS_WEBHOOK_DISABLED');
    } finally {
      await off.close();
    }
  });
});

describe('unapplied payments for finance', () => {
  async function kept(overrides: Record<string, unknown> = {}) {
    const response = await deliver(payload(overrides));
    expect(response.body.outcome).toBe('unapplied');
    return response.body.id as string;
  }

  it('lists open ones first, oldest first, for finance only', async () => {
    const older = await kept({ receivedAt: new Date(Date.now() - 3 * 86_400_000).toISOString() });
    const newer = await kept({ receivedAt: new Date(Date.now() - 2 * 86_400_000).toISOString() });
    await finance.post(`/api/staff/unapplied-payments/${older}/return`, { reason: 'Sent back by GCash' });
    const list = await finance.get('/api/staff/unapplied-payments');
    expect(list.status, list.text).toBe(200);
    const ids = list.body.items.map((i: { id: string }) => i.id);
    expect(list.body.items[0].status).toBe('open');
    const lastOpen = list.body.items.findLastIndex((i: { status: string }) => i.status === 'open');
    expect(ids.indexOf(older)).toBeGreaterThan(lastOpen);
    expect(ids).toContain(newer);
    expect(list.body.total).toBeGreaterThanOrEqual(2);
    expect((await officer.get('/api/staff/unapplied-payments')).status).toBe(403);
    expect((await officer.post(`/api/staff/unapplied-payments/${newer}/apply`, { loan: 'x' })).status).toBe(
      403,
    );
  });

  it('applies one to a loan by loan number: a repayment, and the record applied, once', async () => {
    const { id, loanNumber } = await loan();
    const payment = await kept({ amountMinor: 300_000 });
    const unknownLoan = await finance.post(`/api/staff/unapplied-payments/${payment}/apply`, {
      loan: 'HL-99-999999',
    });
    expect(unknownLoan.status).toBe(404);
    expect(unknownLoan.body.error.code).toBe('LOAN_NOT_FOUND');

    const response = await finance.post(`/api/staff/unapplied-payments/${payment}/apply`, {
      loan: loanNumber,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: payment, status: 'applied', loanStatus: 'approved' });
    const repayment = await t.db
      .selectFrom('repayments')
      .selectAll()
      .where('id', '=', response.body.repaymentId)
      .executeTakeFirstOrThrow();
    expect(repayment).toMatchObject({
      application_id: id,
      amount: 300_000,
      source: 'webhook',
      channel: 'gcash',
    });
    expect(repayment.recorded_by).not.toBeNull();
    const row = await t.db
      .selectFrom('unapplied_payments')
      .selectAll()
      .where('id', '=', payment)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'applied', applied_repayment_id: repayment.id });
    const actions = await t.db
      .selectFrom('audit_events')
      .select('action')
      .where('loan_id', '=', id)
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['repayment.record', 'payment.apply']);

    const again = await finance2.post(`/api/staff/unapplied-payments/${payment}/apply`, { loan: id });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('UNAPPLIED_PAYMENT_RESOLVED');
    const returned = await finance2.post(`/api/staff/unapplied-payments/${payment}/return`, { reason: 'x' });
    expect(returned.status).toBe(409);
    expect(await listedUnapplied(payment)).toMatchObject({ appliedLoanNumber: loanNumber });
  });

  it('answers a redelivery of an applied payment as first answered, creating no second repayment', async () => {
    const { id, loanNumber } = await loan();
    const body = payload({ amountMinor: 40_000 });
    const first = await deliver(body);
    expect(first.body.outcome).toBe('unapplied');
    const applied = await finance.post(`/api/staff/unapplied-payments/${first.body.id}/apply`, {
      loan: loanNumber,
    });
    expect(applied.status, applied.text).toBe(200);
    const again = await deliver(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const rows = await t.db.selectFrom('repayments').select('id').where('application_id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });

  it('applies more than the loan owes too: the rest is held for the borrower as credit', async () => {
    const { id, loanNumber } = await loan();
    const payment = await kept({ amountMinor: 50_000_000 });
    const response = await finance.post(`/api/staff/unapplied-payments/${payment}/apply`, {
      loan: loanNumber,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.loanStatus).toBe('closed');
    const position = (await finance.get(`/api/staff/loans/${id}/ledger`)).body.position;
    expect(position.creditMinor).toBeGreaterThan(0);
    expect(position.payoffMinor).toBe(0);
  });

  it('records money sent back with a required reason', async () => {
    const payment = await kept();
    const noReason = await finance.post(`/api/staff/unapplied-payments/${payment}/return`, { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.code).toBe('REASON_REQUIRED');
    const response = await finance.post(`/api/staff/unapplied-payments/${payment}/return`, {
      reason: 'Refunded to the payer’s GCash',
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ status: 'returned', repaymentId: null });
    const row = await t.db
      .selectFrom('unapplied_payments')
      .selectAll()
      .where('id', '=', payment)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'returned', resolution_note: 'Refunded to the payer’s GCash' });
    const audit = await storedAuditEvent(t.db, { targetId: payment, action: 'payment.return' });
    expect(audit.reason).toBe('Refunded to the payer’s GCash');
  });

  it('keeps the money facts: no edit, no delete, no way back to open', async () => {
    const payment = await kept();
    await expect(
      t.db.updateTable('unapplied_payments').set({ status: 'open' }).where('id', '=', payment).execute(),
    ).rejects.toThrow(/only open/);
    await expect(t.db.deleteFrom('unapplied_payments').where('id', '=', payment).execute()).rejects.toThrow(
      /not allowed/,
    );
    await finance.post(`/api/staff/unapplied-payments/${payment}/return`, { reason: 'Sent back' });
    await expect(
      t.db
        .updateTable('unapplied_payments')
        .set({ status: 'applied', resolution_note: 'changed' })
        .where('id', '=', payment)
        .execute(),
    ).rejects.toThrow(/only open/);
  });
});

describe('the Repayments list', () => {
  it('is newest first and searchable by name, phone, loan number and reference', async () => {
    const a = await loan('approved', 'Maria Santos');
    const b = await loan('approved', 'Jose Rizal');
    await deliver(payload({ paymentReference: a.loanNumber, reference: 'LIST-A-1', amountMinor: 10_000 }));
    await deliver(payload({ paymentReference: b.loanNumber, reference: 'LIST-B-1', amountMinor: 20_000 }));
    const all = await officer.get('/api/staff/repayments');
    expect(all.status, all.text).toBe(200);
    expect(all.body.items[0]).toMatchObject({
      reference: 'LIST-B-1',
      loanNumber: b.loanNumber,
      source: 'webhook',
    });
    expect(all.body.items[1].reference).toBe('LIST-A-1');
    const byName = await officer.get('/api/staff/repayments?name=maria');
    expect(byName.body.items.map((i: { reference: string }) => i.reference)).toEqual(['LIST-A-1']);
    const byPhone = await officer.get(`/api/staff/repayments?phone=${b.phone}`);
    expect(byPhone.body.items.map((i: { reference: string }) => i.reference)).toEqual(['LIST-B-1']);
    const byLoan = await officer.get(`/api/staff/repayments?q=${a.loanNumber.toLowerCase()}`);
    expect(byLoan.body.items.map((i: { reference: string }) => i.reference)).toEqual(['LIST-A-1']);
    const byRef = await officer.get('/api/staff/repayments?q=list-b');
    expect(byRef.body).toMatchObject({ total: 1, page: 1, pageCount: 1 });
    // Name and q together: both must hold (a reference of Jose's loan is not Maria's); a loan number typed
    // without its dashes; a later page past the few matches is empty.
    const refs = async (url: string) =>
      (await officer.get(url)).body.items.map((i: { reference: string }) => i.reference);
    expect(await refs('/api/staff/repayments?name=maria&q=list-b')).toEqual([]);
    expect(await refs('/api/staff/repayments?name=jose&q=list-b')).toEqual(['LIST-B-1']);
    expect(await refs(`/api/staff/repayments?q=${a.loanNumber.replaceAll('-', '')}`)).toEqual(['LIST-A-1']);
    expect(await refs(`/api/staff/repayments?name=maria&q=${a.loanNumber}`)).toEqual(['LIST-A-1']);
    expect(await refs('/api/staff/repayments?name=maria&page=2')).toEqual([]);
    expect((await t.agent().get('/api/staff/repayments')).status).toBe(401);
  });

  it('finds the payments of running, held and closed loans by name and phone', async () => {
    const running = await loan('approved', 'Ludovica Keptrunning');
    const closed = await loan('approved', 'Ludovica Nowclosed');
    const held = await loan('approved', 'Ludovica Onhold');
    await deliver(
      payload({ paymentReference: running.loanNumber, reference: 'KEPT-RUN', amountMinor: 10_000 }),
    );
    await deliver(
      payload({ paymentReference: closed.loanNumber, reference: 'KEPT-CLOSED', amountMinor: 10_000 }),
    );
    await deliver(
      payload({ paymentReference: held.loanNumber, reference: 'KEPT-HELD', amountMinor: 10_000 }),
    );
    await t.db.updateTable('applications').set({ status: 'closed' }).where('id', '=', closed.id).execute();
    await t.db.updateTable('applications').set({ status: 'on_hold' }).where('id', '=', held.id).execute();
    const refs = async (url: string) =>
      ((await officer.get(url)).body.items as { reference: string }[]).map((i) => i.reference).sort();
    expect(await refs('/api/staff/repayments?name=ludovica')).toEqual([
      'KEPT-CLOSED',
      'KEPT-HELD',
      'KEPT-RUN',
    ]);
    expect(await refs(`/api/staff/repayments?phone=${closed.phone}`)).toEqual(['KEPT-CLOSED']);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('concurrency (PostgreSQL)', () => {
  it('two finance users applying the same payment at once: one repayment', async () => {
    const { id, loanNumber } = await loan();
    for (let round = 0; round < 3; round++) {
      const response = await deliver(payload({ amountMinor: 10_000 }));
      const payment = response.body.id as string;
      const responses = await Promise.all([
        finance.post(`/api/staff/unapplied-payments/${payment}/apply`, { loan: loanNumber }),
        finance2.post(`/api/staff/unapplied-payments/${payment}/apply`, { loan: id }),
      ]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    }
    const rows = await t.db.selectFrom('repayments').select('id').where('application_id', '=', id).execute();
    expect(rows).toHaveLength(3);
  });

  it('the same delivery arriving twice at once makes one repayment', async () => {
    const { id, loanNumber } = await loan();
    const body = payload({ paymentReference: loanNumber, amountMinor: 10_000 });
    const responses = await Promise.all([deliver(body), deliver(body), deliver(body)]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    const rows = await t.db.selectFrom('repayments').select('id').where('application_id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('the OpenAPI document', () => {
  it('documents the webhook payload, its signature headers and its answer under payments', async () => {
    const response = await t.agent().get('/api/docs/json');
    expect(response.status).toBe(200);
    const operation = response.body.paths['/api/payments/webhook'].post;
    expect(operation.tags).toEqual(['payments']);
    const schema = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['reference', 'paymentReference', 'amountMinor', 'currency', 'receivedAt']),
    );
    expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['header:x-hiram-timestamp', 'header:x-hiram-signature']),
    );
    expect(operation.responses['200']).toBeDefined();
  });
});

describe('payloads the database cannot store (issue #15)', () => {
  it('NUL or a lone surrogate anywhere in the signed payload, extra fields too, is a 400 and stores nothing', async () => {
    const before = await counts();
    const raws = [
      JSON.stringify(payload({ payerName: 'Ana\u0000' })),
      JSON.stringify(payload()).replace(/}$/, ',"note":"x\\u0000y"}'),
      JSON.stringify(payload()).replace(/}$/, ',"note":"\\ud800"}'),
      JSON.stringify(payload()).replace(/}$/, ',"n\\u0000":1}'),
    ];
    for (const raw of raws) {
      const response = await deliver(raw);
      expect(response.status, `${raw}: ${response.text}`).toBe(400);
      expect(response.body.error.code).toBe('TEXT_INVALID_CHARACTERS');
    }
    expect(await counts()).toEqual(before);
  });

  it.each(['0000-01-01T00:00:00Z', '+010000-01-01T00:00:00Z', '1899-12-31T23:59:59Z'])(
    'receivedAt %s is refused with 400',
    async (receivedAt) => {
      const response = await deliver(payload({ receivedAt }));
      expect(response.status, response.text).toBe(400);
    },
  );
});

// Last in the file: it adds 20,100 repayments the tests above must not see.
describe('a broad search on the Repayments list (more matches than it sorts, issue #35)', () => {
  it('pages through them newest first with the capped total, walking only the page while the count is known', async () => {
    const broad = await loan('approved', 'Quintessa Broadmatch');
    const other = await loan('approved', 'Otto Elsewhere');
    // 10,050 of the searched loan's payments (the list sorts up to 10,000 matches itself), each half a second
    // newer than one of another loan's, so a walk that forgot the search would show the other loan's.
    await sql`
      insert into repayments (application_id, amount, received_on, channel, reference, source, created_at)
      select ${broad.id}::uuid, 100, current_date, 'cash', 'BROAD-' || g, 'webhook', now() - g * interval '1 second'
      from generate_series(1, 10050) g
      union all
      select ${other.id}::uuid, 100, current_date, 'cash', 'OTHER-' || g, 'webhook',
        now() - g * interval '1 second' - interval '500 milliseconds'
      from generate_series(1, 10050) g`.execute(t.db);
    const page = async (n: number) => {
      const response = await officer.get(`/api/staff/repayments?name=broadmatch&page=${n}`);
      expect(response.status, response.text).toBe(200);
      return response.body as { items: { reference: string }[]; total: number; totalCapped: boolean };
    };
    const refs = (from: number) => Array.from({ length: 10 }, (_, i) => `BROAD-${from + i}`);
    // Pages 1–901: the 1,000 rows from the page on lie inside the 10,001 matches counted.
    for (const [n, total] of [
      [1, 1000],
      [2, 1010],
      [901, 10000],
    ] as const) {
      const body = await page(n);
      expect(body.items.map((i) => i.reference)).toEqual(refs((n - 1) * 10 + 1));
      expect(body).toMatchObject({ total, totalCapped: true });
    }
    // Page 902 on: counted by the walk; exact once fewer than 1,000 remain.
    const past = await page(902);
    expect(past).toMatchObject({ total: 10010, totalCapped: true });
    expect(past.items.map((i) => i.reference)).toEqual(refs(9011));
    const late = await page(1000);
    expect(late).toMatchObject({ total: 10050, totalCapped: false });
    expect(late.items.map((i) => i.reference)).toEqual(refs(9991));
    // Past the 10,001 sorted, the page comes back empty: the matches, counted as far as the list sorts,
    // send it to the walk.
    const beyondSorted = await page(1002);
    expect(beyondSorted).toMatchObject({ total: 10050, totalCapped: false });
    expect(beyondSorted.items.map((i) => i.reference)).toEqual(refs(10011));
    expect(await page(1100)).toMatchObject({ items: [], total: 10050, totalCapped: false });
  });
});
