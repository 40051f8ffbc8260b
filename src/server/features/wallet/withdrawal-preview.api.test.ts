import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { addDays, addMonthsClamped } from '../../../domain/loan/calendar';
import { defaultRepaymentRules, type LoanRecords, previewWithdrawal } from '../../../domain/loan/repayments';
import { seedApplication, seedPaidDisbursement, seedRequestedDisbursement } from '../../test-support/seed';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../../test-support/test-app';
import { ageVerificationCodes } from '../../test-support/verification-codes';
import { insertDisbursement } from './request-withdrawal';

/** Re-disclosure before every withdrawal (issue #10): the preview, and the code bound to its figures. */

let t: TestApp;
let finance: Agent;
let officer: Agent;
const clock = shiftedClock();

beforeAll(async () => {
  t = await createTestApp({ clock });
  finance = await t.signInStaff('finance');
  officer = await t.signInStaff('officer');
});
afterAll(() => t.close());

const today = () => todayIn('Asia/Manila', clock.now());
const key = () => randomUUID();

/** A borrower with an approved ₱100,000 loan over 12 months at 2 % (seedApplication's terms). */
async function borrowerWithLoan(options: { termMonths?: number; status?: 'approved' | 'pending' } = {}) {
  const { user, phone, password } = await t.signUpBorrower();
  const id = await seedApplication(t.db, {
    borrowerId: user.id,
    phone,
    status: options.status ?? 'approved',
    termMonths: options.termMonths ?? 12,
  });
  return { id, user, phone, agent: await t.loginAs(phone, password) };
}

/** The loan's records as the domain takes them, written out by hand (no fees in the seeded disclosure). */
function records(disbursements: LoanRecords['disbursements'], termMonths = 12): LoanRecords {
  return {
    termMonths,
    monthlyRateBp: 200,
    feesMinor: 0,
    disbursements,
    repayments: [],
    rules: defaultRepaymentRules,
  };
}

async function preview(agent: Agent, amount: number | string) {
  return agent.post('/api/wallet/withdrawal-preview', { amount });
}

/** Preview, then a code for the figures shown; answers the code (read from the outbox) and the preview. */
async function codeAfterPreview(agent: Agent, phone: string, amount: number) {
  const shown = await preview(agent, amount);
  expect(shown.status, shown.text).toBe(200);
  const sent = await agent.post('/api/wallet/withdrawal-code', { amount, planDigest: shown.body.planDigest });
  expect(sent.status, sent.text).toBe(200);
  return { code: await t.latestCode(phone), shown: shown.body };
}

async function disbursementsOf(applicationId: string) {
  return t.db
    .selectFrom('disbursements')
    .select(['amount', 'status'])
    .where('application_id', '=', applicationId)
    .orderBy('requested_at')
    .execute();
}

async function latestCodeRow(phone: string) {
  return t.db
    .selectFrom('verification_codes')
    .select(['used_at', 'attempts', 'context'])
    .where('phone', '=', phone)
    .where('purpose', '=', 'withdrawal')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
}

async function withdrawalSms(phone: string) {
  const outbox = await t.local().get(`/api/dev/outbox?phone=${phone}`);
  return outbox.body.messages.filter((m: { purpose: string }) => m.purpose === 'withdrawal');
}

const planChanged = {
  code: 'WITHDRAWAL_PLAN_CHANGED',
  message: 'Your payment plan changed. Please review it and request a new code.',
};
const previewOutdated = {
  code: 'WITHDRAWAL_PREVIEW_OUTDATED',
  message: 'Your payment plan has changed. Please review the new figures, then send the code again.',
};

describe('withdrawal preview', () => {
  it('first withdrawal: no plan before; after it, the figures of previewWithdrawal for a payout today', async () => {
    const { id, agent, phone } = await borrowerWithLoan();
    const response = await preview(agent, '100,000');
    expect(response.status, response.text).toBe(200);
    const expected = previewWithdrawal(records([]), {
      amountMinor: 10_000_000,
      feeMinor: 0,
      payoutOn: today(),
    });
    expect(response.body).toMatchObject({
      amountMinor: 10_000_000,
      payoutOn: today(),
      termMonths: 12,
      inProcessingMinor: 0,
      before: null,
      after: expected.after,
      planDigest: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
    // A single payout is the plain schedule (docs/decisions/010): 12 × ₱9,455.96 from a month after today.
    expect(response.body.after).toMatchObject({
      monthlyPaymentMinor: 945_596,
      fromInstalment: 1,
      fromDueDate: addMonthsClamped(today(), 1),
    });
    // Nothing was written or sent: a preview is only a calculation.
    expect(await withdrawalSms(phone)).toEqual([]);
    expect(await disbursementsOf(id)).toEqual([]);
  });

  it('later withdrawal: payouts count on the day they were paid, withdrawals in processing as if paid today', async () => {
    const { id, agent } = await borrowerWithLoan({ termMonths: 6 });
    await seedPaidDisbursement(t.db, id, { amountMinor: 3_000_000 });
    await t.db
      .updateTable('disbursements')
      .set({ decided_at: sql`now() - interval '10 days'` })
      .where('application_id', '=', id)
      .execute();
    await seedRequestedDisbursement(t.db, id, 1_000_000);
    const response = await preview(agent, 20000);
    expect(response.status, response.text).toBe(200);
    const expected = previewWithdrawal(
      records(
        [
          { amountMinor: 3_000_000, paidOn: todayIn('Asia/Manila', new Date(Date.now() - 10 * 86_400_000)) },
          { amountMinor: 1_000_000, paidOn: today() },
        ],
        6,
      ),
      { amountMinor: 2_000_000, feeMinor: 0, payoutOn: today() },
    );
    expect(response.body).toMatchObject({
      amountMinor: 2_000_000,
      termMonths: 6,
      inProcessingMinor: 1_000_000,
      before: expected.before,
      after: expected.after,
    });
    expect(response.body.before).not.toBeNull();
    expect(response.body.after.monthlyPaymentMinor).toBeGreaterThan(response.body.before.monthlyPaymentMinor);
    expect(response.body.after.totalRepayableMinor).toBeGreaterThan(response.body.before.totalRepayableMinor);
    // Different amounts, different plans, different digests.
    const other = await preview(agent, 20001);
    expect(other.body.planDigest).not.toBe(response.body.planDigest);
    expect((await preview(agent, 20000)).body.planDigest).toBe(response.body.planDigest);
  });

  it('is refused as sending a code is: amount, balance, hold, no loan', async () => {
    const { id, agent } = await borrowerWithLoan();
    for (const amount of [0, -5, 'abc', '1.5', '', null]) {
      const bad = await preview(agent, amount as number);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('AMOUNT_INVALID');
    }
    const over = await preview(agent, 100001);
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('AMOUNT_EXCEEDS_BALANCE');
    await t.db
      .updateTable('applications')
      .set({ status: 'on_hold', status_message: 'Please call our office' })
      .where('id', '=', id)
      .execute();
    const held = await preview(agent, 1000);
    expect(held.status).toBe(409);
    expect(held.body.error.message).toBe('Withdrawals are paused: Please call our office');
    const pending = await borrowerWithLoan({ status: 'pending' });
    const none = await preview(pending.agent, 1000);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('LOAN_NOT_FOUND');
  });

  it("is the borrower's own loan only; staff and strangers are refused", async () => {
    const short = await borrowerWithLoan({ termMonths: 6 });
    const long = await borrowerWithLoan({ termMonths: 24 });
    // No loan id in the request: each borrower can only ever see their own loan's plan.
    expect((await preview(short.agent, 1000)).body.termMonths).toBe(6);
    expect((await preview(long.agent, 1000)).body.termMonths).toBe(24);
    for (const staff of [finance, officer]) {
      const refused = await preview(staff, 1000);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    expect((await preview(t.agent(), 1000)).status).toBe(401);
  });
});

describe('the code is bound to the figures shown', () => {
  it('is sent only with the digest of the figures the preview gives now', async () => {
    const { id, agent, phone } = await borrowerWithLoan();
    const missing = await agent.post('/api/wallet/withdrawal-code', { amount: 5000 });
    expect(missing.status).toBe(409);
    expect(missing.body.error).toMatchObject(previewOutdated);
    const shown = (await preview(agent, 5000)).body;
    const forged = await agent.post('/api/wallet/withdrawal-code', {
      amount: 5000,
      planDigest: 'x'.repeat(32),
    });
    expect(forged.body.error.code).toBe('WITHDRAWAL_PREVIEW_OUTDATED');
    // The digest of another amount's figures does not do either.
    const otherAmount = await agent.post('/api/wallet/withdrawal-code', {
      amount: 6000,
      planDigest: shown.planDigest,
    });
    expect(otherAmount.body.error.code).toBe('WITHDRAWAL_PREVIEW_OUTDATED');
    // A payout comes in after the preview: what the borrower saw is no longer what would happen.
    await seedPaidDisbursement(t.db, id, { amountMinor: 2_000_000 });
    const stale = await agent.post('/api/wallet/withdrawal-code', {
      amount: 5000,
      planDigest: shown.planDigest,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject(previewOutdated);
    expect(await withdrawalSms(phone)).toEqual([]);

    const fresh = (await preview(agent, 5000)).body;
    expect(fresh.planDigest).not.toBe(shown.planDigest);
    expect(fresh.before).not.toBeNull();
    const sent = await agent.post('/api/wallet/withdrawal-code', {
      amount: 5000,
      planDigest: fresh.planDigest,
    });
    expect(sent.status, sent.text).toBe(200);
    expect((await latestCodeRow(phone)).context).toContain(`;plan=${fresh.planDigest}`);
  });

  it('refuses the withdrawal when a payout was marked paid after the code was sent; nothing is created', async () => {
    const { id, agent, phone } = await borrowerWithLoan();
    const { code } = await codeAfterPreview(agent, phone, 5000);
    await seedPaidDisbursement(t.db, id, { amountMinor: 2_000_000 });
    const refused = await agent.post('/api/wallet/withdrawals', {
      amount: 5000,
      code,
      idempotencyKey: key(),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject(planChanged);
    expect(await disbursementsOf(id)).toEqual([{ amount: 2_000_000, status: 'paid' }]);
    // The code was not spent on it (no try counted), but it can never pass for the new figures.
    expect(await latestCodeRow(phone)).toMatchObject({ used_at: null, attempts: 0 });
    const again = await agent.post('/api/wallet/withdrawals', { amount: 5000, code, idempotencyKey: key() });
    expect(again.body.error.code).toBe('WITHDRAWAL_PLAN_CHANGED');

    // Reviewed again, a new code for the new figures withdraws.
    await ageVerificationCodes(t.db, phone);
    const next = await codeAfterPreview(agent, phone, 5000);
    const ok = await agent.post('/api/wallet/withdrawals', {
      amount: 5000,
      code: next.code,
      idempotencyKey: key(),
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('refuses it when a withdrawal in processing failed meanwhile, not when it was paid today as shown', async () => {
    const failing = await borrowerWithLoan();
    const failed = await seedRequestedDisbursement(t.db, failing.id, 1_000_000);
    const first = await codeAfterPreview(failing.agent, failing.phone, 5000);
    expect(first.shown.inProcessingMinor).toBe(1_000_000);
    expect(
      (await finance.post(`/api/staff/disbursements/${failed}/failed`, { reason: 'Account closed' })).status,
    ).toBe(200);
    const refused = await failing.agent.post('/api/wallet/withdrawals', {
      amount: 5000,
      code: first.code,
      idempotencyKey: key(),
    });
    expect(refused.body.error.code).toBe('WITHDRAWAL_PLAN_CHANGED');
    expect((await disbursementsOf(failing.id)).map((d) => d.status)).toEqual(['failed']);

    // The preview counted the withdrawal in processing as paid out today: paying it today changes nothing.
    const paying = await borrowerWithLoan();
    const paid = await seedRequestedDisbursement(t.db, paying.id, 1_000_000);
    const second = await codeAfterPreview(paying.agent, paying.phone, 5000);
    expect((await finance.post(`/api/staff/disbursements/${paid}/paid`, { reference: 'P-1' })).status).toBe(
      200,
    );
    const ok = await paying.agent.post('/api/wallet/withdrawals', {
      amount: 5000,
      code: second.code,
      idempotencyKey: key(),
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('refuses it when a repayment was recorded meanwhile', async () => {
    const { id, agent, phone } = await borrowerWithLoan();
    await seedPaidDisbursement(t.db, id, { amountMinor: 5_000_000 });
    const { code } = await codeAfterPreview(agent, phone, 5000);
    const recorded = await finance.post(`/api/staff/loans/${id}/repayments`, {
      amount: '1000',
      receivedOn: today(),
      channel: 'gcash',
      reference: `RD-${id.slice(0, 8)}`,
    });
    expect(recorded.status, recorded.text).toBe(201);
    const refused = await agent.post('/api/wallet/withdrawals', {
      amount: 5000,
      code,
      idempotencyKey: key(),
    });
    expect(refused.body.error).toMatchObject(planChanged);
    expect(await disbursementsOf(id)).toHaveLength(1);
  });

  it('refuses it when the day changed: the figures were for a payout on the day shown', async () => {
    const { id, agent, phone } = await borrowerWithLoan();
    const { code, shown } = await codeAfterPreview(agent, phone, 5000);
    expect(shown.payoutOn).toBe(today());
    clock.days += 1;
    try {
      expect(shown.payoutOn).toBe(addDays(today(), -1));
      const refused = await agent.post('/api/wallet/withdrawals', {
        amount: 5000,
        code,
        idempotencyKey: key(),
      });
      expect(refused.body.error.code).toBe('WITHDRAWAL_PLAN_CHANGED');
      expect(await disbursementsOf(id)).toEqual([]);
    } finally {
      clock.days = 0;
    }
  });

  it('re-checks the plan under the loan lock, in the transaction that records the withdrawal', async () => {
    const { id, user, agent } = await borrowerWithLoan();
    const { planDigest } = (await preview(agent, 5000)).body;
    const when = { today: today(), timeZone: 'Asia/Manila' };
    const deps = t.deps;
    await expect(
      t.db
        .transaction()
        .execute((trx) => insertDisbursement(trx, user.id, 500_000, key(), when, { digest: 'stale', deps })),
    ).rejects.toMatchObject({ code: 'WITHDRAWAL_PLAN_CHANGED' });
    expect(await disbursementsOf(id)).toEqual([]);
    await t.db
      .transaction()
      .execute((trx) => insertDisbursement(trx, user.id, 500_000, key(), when, { digest: planDigest, deps }));
    expect(await disbursementsOf(id)).toEqual([{ amount: 500_000, status: 'requested' }]);
  });
});
