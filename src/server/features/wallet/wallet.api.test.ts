import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { seedApplication, storedStatus } from '../../test-support/seed';
import {
  type Agent,
  asIfEachOnItsOwnInstance,
  createTestApp,
  type TestApp,
} from '../../test-support/test-app';
import { ageVerificationCodes } from '../../test-support/verification-codes';
import { sendWithdrawalCode } from '../../test-support/withdrawal';
import { insertDisbursement } from './request-withdrawal';

let t: TestApp;
let finance: Agent;
let officer: Agent;
let financeName: string;

beforeAll(async () => {
  t = await createTestApp();
  const f = await t.createUser({ role: 'finance' });
  finance = await t.loginAs(f.user.username!, f.password);
  financeName = f.user.username!;
  officer = await t.signInStaff('officer');
});
afterAll(() => t.close());

/** A borrower with an approved loan of ₱100,000 (unless told otherwise). */
async function borrowerWithLoan(
  status: 'approved' | 'pending' | 'on_hold' = 'approved',
  amountMinor = 10_000_000,
) {
  const { user, phone, password } = await t.signUpBorrower();
  const id = await seedApplication(t.db, {
    borrowerId: user.id,
    phone,
    status: status === 'on_hold' ? 'approved' : status,
    amountMinor,
  });
  if (status === 'on_hold') {
    await t.db
      .updateTable('applications')
      .set({ status: 'on_hold', status_message: 'Please call our office' })
      .where('id', '=', id)
      .execute();
  }
  return { id, user, phone, agent: await t.loginAs(phone, password) };
}

async function codeFor(agent: Agent, phone: string, amount: number | string) {
  const sent = await sendWithdrawalCode(agent, amount);
  expect(sent.status, sent.text).toBe(200);
  return t.latestCode(phone);
}

const key = () => randomUUID();

describe('wallet', () => {
  it('shows the loan, balance and an empty history for a new approved loan: no schedule before a payout', async () => {
    const { agent } = await borrowerWithLoan();
    const wallet = await agent.get('/api/wallet');
    expect(wallet.status).toBe(200);
    expect(wallet.body.balance).toEqual({
      approvedMinor: 10_000_000,
      withdrawnMinor: 0,
      availableMinor: 10_000_000,
    });
    expect(wallet.body.inProcessing).toBe(false);
    // Interest runs only on money paid out: nothing was, so there is no schedule yet (issue #10).
    expect(wallet.body.schedule).toEqual([]);
    expect(wallet.body.repayment).toMatchObject({
      position: null,
      repayments: [],
      paymentReference: expect.stringMatching(/^HL-/),
      // The default channels are examples (docs/decisions/037): flagged, never with a code to scan.
      paymentChannels: [
        expect.objectContaining({ code: 'bank_transfer', example: true, qr: null }),
        expect.objectContaining({ code: 'gcash', example: true, qr: null }),
      ],
    });
    expect(wallet.body.canApply).toBe(false);
  });

  it('shows a pending application without a balance, and nothing for a new borrower', async () => {
    const { agent } = await borrowerWithLoan('pending');
    const wallet = await agent.get('/api/wallet');
    expect(wallet.body.application.status).toBe('pending');
    expect(wallet.body.balance).toBeNull();
    const fresh = await t.signUpBorrower();
    const empty = await (await t.loginAs(fresh.phone, fresh.password)).get('/api/wallet');
    expect(empty.body).toMatchObject({ application: null, canApply: true, balance: null, disbursements: [] });
  });

  it('is for borrowers only', async () => {
    expect((await finance.get('/api/wallet')).status).toBe(403);
    expect((await t.agent().get('/api/wallet')).status).toBe(401);
  });
});

describe('withdrawal messages', () => {
  it.each([[0], [-5], ['abc'], ['1.5'], [''], [null]])(
    'refuses amount %j with "Enter a valid amount"',
    async (amount) => {
      const { agent } = await borrowerWithLoan();
      const code = await agent.post('/api/wallet/withdrawal-code', { amount });
      expect(code.status).toBe(400);
      expect(code.body.error.message).toBe('Enter a valid amount');
      const withdraw = await agent.post('/api/wallet/withdrawals', {
        amount,
        code: '123456',
        idempotencyKey: key(),
      });
      expect(withdraw.status).toBe(400);
      expect(withdraw.body.error.message).toBe('Enter a valid amount');
    },
  );

  it('refuses more than the balance, before sending a code', async () => {
    const { agent, phone } = await borrowerWithLoan();
    const response = await agent.post('/api/wallet/withdrawal-code', { amount: 100001 });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Amount exceeds balance');
    const outbox = await t.local().get(`/api/dev/outbox?phone=${phone}`);
    expect(outbox.body.messages.filter((m: { purpose: string }) => m.purpose === 'withdrawal')).toHaveLength(
      0,
    );
  });

  it('asks for the code, and refuses a wrong one', async () => {
    const { agent, phone, id } = await borrowerWithLoan();
    await codeFor(agent, phone, 5000);
    const missing = await agent.post('/api/wallet/withdrawals', {
      amount: 5000,
      code: '',
      idempotencyKey: key(),
    });
    expect(missing.body.error.message).toBe('Enter the verification code');
    const wrong = await agent.post('/api/wallet/withdrawals', {
      amount: 5000,
      code: '000000',
      idempotencyKey: key(),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('Invalid or expired code');
    const rows = await t.db
      .selectFrom('disbursements')
      .select('id')
      .where('application_id', '=', id)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('refuses while the loan is on hold, with the hold message', async () => {
    const { agent } = await borrowerWithLoan('on_hold');
    const response = await agent.post('/api/wallet/withdrawal-code', { amount: 5000 });
    expect(response.status).toBe(409);
    expect(response.body.error.message).toBe('Withdrawals are paused: Please call our office');
  });

  it('refuses without an approved loan: "Loan record not found"', async () => {
    const { agent } = await borrowerWithLoan('pending');
    const response = await agent.post('/api/wallet/withdrawal-code', { amount: 5000 });
    expect(response.status).toBe(404);
    expect(response.body.error.message).toBe('Loan record not found');
  });
});

describe('withdrawing', () => {
  it('creates a requested disbursement with the code; the wallet shows In Processing and the lower balance', async () => {
    const { agent, phone, id } = await borrowerWithLoan();
    const code = await codeFor(agent, phone, '25,000');
    const sms = (await t.local().get(`/api/dev/outbox?phone=${phone}`)).body.messages[0].text;
    // "PHP", not "₱": the code SMS stays in GSM-7, one segment (issue #36).
    expect(sms).toContain('PHP 25,000.00');
    expect(sms).toContain('****4567');
    expect(sms).toContain('We will never ask you for this code or for a fee to release your loan.');

    const response = await agent.post('/api/wallet/withdrawals', {
      amount: 25000,
      code,
      idempotencyKey: key(),
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.disbursement).toMatchObject({
      amountMinor: 2_500_000,
      status: 'requested',
      bankName: 'GCash',
    });
    const wallet = await agent.get('/api/wallet');
    expect(wallet.body.inProcessing).toBe(true);
    expect(wallet.body.balance).toMatchObject({ withdrawnMinor: 2_500_000, availableMinor: 7_500_000 });
    const row = await t.db
      .selectFrom('disbursements')
      .selectAll()
      .where('application_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.code_verified).toBe(true);
    expect(row.account_number).toBe('09171234567');
  });

  it('never accepts a code twice, after it expired, after five wrong tries, or for another amount', async () => {
    const { agent, phone, id } = await borrowerWithLoan();
    // Used twice.
    let code = await codeFor(agent, phone, 1000);
    expect(
      (await agent.post('/api/wallet/withdrawals', { amount: 1000, code, idempotencyKey: key() })).status,
    ).toBe(201);
    const twice = await agent.post('/api/wallet/withdrawals', { amount: 1000, code, idempotencyKey: key() });
    expect(twice.body.error.message).toBe('Invalid or expired code');

    // Bound to a different amount.
    await ageVerificationCodes(t.db, phone);
    code = await codeFor(agent, phone, 2000);
    const other = await agent.post('/api/wallet/withdrawals', { amount: 3000, code, idempotencyKey: key() });
    expect(other.body.error.message).toBe('Invalid or expired code');

    // Expired.
    await sql`update verification_codes set expires_at = now() - interval '1 second' where phone = ${phone}`.execute(
      t.db,
    );
    const expired = await agent.post('/api/wallet/withdrawals', {
      amount: 2000,
      code,
      idempotencyKey: key(),
    });
    expect(expired.body.error.message).toBe('Invalid or expired code');

    // Five wrong tries kill it.
    await ageVerificationCodes(t.db, phone);
    code = await codeFor(agent, phone, 4000);
    const wrongCode = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < 5; i++) {
      await agent.post('/api/wallet/withdrawals', { amount: 4000, code: wrongCode, idempotencyKey: key() });
    }
    const dead = await agent.post('/api/wallet/withdrawals', { amount: 4000, code, idempotencyKey: key() });
    expect(dead.body.error.message).toBe('Invalid or expired code');

    const rows = await t.db
      .selectFrom('disbursements')
      .select('amount')
      .where('application_id', '=', id)
      .execute();
    expect(rows.map((r) => r.amount)).toEqual([100_000]);
  });

  it('answers a retried request with the same disbursement (idempotency key)', async () => {
    const { agent, phone, id } = await borrowerWithLoan();
    const code = await codeFor(agent, phone, 5000);
    const idempotencyKey = key();
    const first = await agent.post('/api/wallet/withdrawals', { amount: 5000, code, idempotencyKey });
    const retry = await agent.post('/api/wallet/withdrawals', { amount: 5000, code, idempotencyKey });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(200);
    expect(retry.body.disbursement.id).toBe(first.body.disbursement.id);
    const rows = await t.db
      .selectFrom('disbursements')
      .select('id')
      .where('application_id', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it.each([
    ['on one instance', (work: () => Promise<void>) => work()],
    ['each on an instance of its own', (work: () => Promise<void>) => asIfEachOnItsOwnInstance(t, work)],
  ])(
    'lets one of many simultaneous requests with the same code through, and answers copies of it alike, %s',
    (_, instances) =>
      instances(async () => {
        const { agent, phone, id } = await borrowerWithLoan();
        const code = await codeFor(agent, phone, 5000);
        const sameKey = key();
        const results = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            agent.post('/api/wallet/withdrawals', {
              amount: 5000,
              code,
              idempotencyKey: i < 10 ? sameKey : key(),
            }),
          ),
        );
        const created = results.filter((r) => r.status === 201);
        expect(created).toHaveLength(1);
        // Copies of the winning request (its key) are answered with its disbursement; the rest are refused.
        const winnerWasCopied = results.findIndex((r) => r.status === 201) < 10;
        expect(results.filter((r) => r.status === 200)).toHaveLength(winnerWasCopied ? 9 : 0);
        const rows = await t.db
          .selectFrom('disbursements')
          .select('id')
          .where('application_id', '=', id)
          .execute();
        expect(rows).toHaveLength(1);
        for (const r of results) {
          if (r.status === 200) expect(r.body.disbursement.id).toBe(rows[0]!.id);
          if (r.status === 400) expect(r.body.error.message).toBe('Invalid or expired code');
        }
        expect(results.every((r) => [200, 201, 400].includes(r.status))).toBe(true);
      }),
  );

  it('can never take more than the balance, however many withdrawals run at once', async () => {
    const { user, id } = await borrowerWithLoan('approved', 1_000_000); // ₱10,000
    // 100 concurrent withdrawals of ₱300 (₱30,000 in all) through the locked balance check.
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () =>
        t.db.transaction().execute((trx) =>
          insertDisbursement(trx, user.id, 30_000, key(), {
            today: todayIn('Asia/Manila'),
            timeZone: 'Asia/Manila',
          }),
        ),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toBe(33); // floor(10,000 / 300)
    for (const r of refused) expect((r as PromiseRejectedResult).reason.code).toBe('AMOUNT_EXCEEDS_BALANCE');
    const total = await t.db
      .selectFrom('disbursements')
      .select(sql<number>`sum(amount)`.as('sum'))
      .where('application_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(total.sum)).toBe(33 * 30_000);
    expect(Number(total.sum)).toBeLessThanOrEqual(1_000_000);
  });

  it('keeps another borrower out', async () => {
    const owner = await borrowerWithLoan();
    const code = await codeFor(owner.agent, owner.phone, 1000);
    const other = await borrowerWithLoan('pending');
    const response = await other.agent.post('/api/wallet/withdrawals', {
      amount: 1000,
      code,
      idempotencyKey: key(),
    });
    expect(response.status).toBe(404);
    const rows = await t.db
      .selectFrom('disbursements')
      .select('id')
      .where('application_id', '=', owner.id)
      .execute();
    expect(rows).toHaveLength(0);
    const wallet = await other.agent.get('/api/wallet');
    expect(wallet.body.application.id).not.toBe(owner.id);
  });
});

describe('fees taken as disclosed (issue #31)', () => {
  it('each payout records gross, fee and net; the borrower receives the net and owes the gross', async () => {
    // ₱500 flat (on the first payout) and 1 % of each payout, as the loan was signed for.
    const { user, phone, password } = await t.signUpBorrower();
    const id = await seedApplication(t.db, {
      borrowerId: user.id,
      phone,
      status: 'approved',
      terms: { fees: { flatMinor: 50_000, percentBp: 100 } },
    });
    const agent = await t.loginAs(phone, password);

    const preview = await agent.post('/api/wallet/withdrawal-preview', { amount: 40000 });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ amountMinor: 4_000_000, feeMinor: 90_000, netMinor: 3_910_000 });
    expect(preview.body.after.totalCostMinor).toBe(preview.body.after.totalInterestMinor + 90_000);
    // Fees make the real cash flows dearer than the contractual 26.82 % a year.
    expect(Number(preview.body.after.effectiveAnnualRate)).toBeGreaterThan(0.268242);

    const code = await codeFor(agent, phone, 40000);
    const first = await agent.post('/api/wallet/withdrawals', { amount: 40000, code, idempotencyKey: key() });
    expect(first.status, first.text).toBe(201);
    expect(first.body.disbursement).toMatchObject({
      amountMinor: 4_000_000,
      feeMinor: 90_000,
      netMinor: 3_910_000,
    });

    // Finance sees what to send.
    const listed = (await finance.get('/api/staff/disbursements?status=requested')).body.items.find(
      (d: { id: string }) => d.id === first.body.disbursement.id,
    );
    expect(listed).toMatchObject({ amountMinor: 4_000_000, feeMinor: 90_000, netMinor: 3_910_000 });
    const fees = async () =>
      (await finance.get('/api/staff/dashboard/portfolio')).body.feesThisMonthMinor as number;
    const feesBefore = await fees();
    const paid = await finance.post(`/api/staff/disbursements/${first.body.disbursement.id}/paid`, {
      reference: 'GC-FEE-1',
    });
    expect(paid.status, paid.text).toBe(200);
    t.forgetCachedAnswers();
    expect(await fees()).toBe(feesBefore + 90_000);

    // The second payout carries the percentage only; the loan owes the gross amounts.
    await ageVerificationCodes(t.db, phone);
    const second = await sendWithdrawalCode(agent, 10000);
    expect(second.status, second.text).toBe(200);
    const secondPreview = await agent.post('/api/wallet/withdrawal-preview', { amount: 10000 });
    expect(secondPreview.body).toMatchObject({ feeMinor: 10_000, netMinor: 990_000 });
    const ledger = (await finance.get(`/api/staff/loans/${id}/ledger`)).body;
    expect(ledger.position.principalPaidOutMinor).toBe(4_000_000);
    // The fee and what was paid to the borrower are on the statement too.
    const statement = await finance.get(`/api/staff/loans/${id}/statement.pdf`);
    expect(statement.status).toBe(200);
    // The amount and the fee of a payout never change.
    await expect(
      t.db
        .updateTable('disbursements')
        .set({ amount: 1 })
        .where('id', '=', first.body.disbursement.id)
        .execute(),
    ).rejects.toThrow(/never change/);
  });

  it('refuses a withdrawal the fee would swallow, with the fee in the message', async () => {
    const { user, phone, password } = await t.signUpBorrower();
    await seedApplication(t.db, {
      borrowerId: user.id,
      phone,
      status: 'approved',
      terms: { fees: { flatMinor: 50_000, percentBp: 0 } },
    });
    const agent = await t.loginAs(phone, password);
    const refused = await agent.post('/api/wallet/withdrawal-preview', { amount: 500 });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'WITHDRAWAL_BELOW_FEE', params: { feeMinor: 50_000 } });
    expect(refused.body.error.message).toContain('₱500.00');
    expect((await sendWithdrawalCode(agent, 500)).body.error.code).toBe('WITHDRAWAL_BELOW_FEE');
  });
});

describe('payouts', () => {
  async function requested(amount = 5000) {
    const b = await borrowerWithLoan();
    const code = await codeFor(b.agent, b.phone, amount);
    const response = await b.agent.post('/api/wallet/withdrawals', { amount, code, idempotencyKey: key() });
    expect(response.status).toBe(201);
    return { ...b, disbursementId: response.body.disbursement.id as string };
  }

  it('finance marks a payout paid with a reference; the borrower sees it; it is audited', async () => {
    const { disbursementId, agent, user } = await requested();
    const list = await officer.get('/api/staff/disbursements?status=requested');
    expect(list.status).toBe(200);
    expect(list.body.items.some((i: { id: string }) => i.id === disbursementId)).toBe(true);
    expect(list.body.items[0].accountNumberLast4).toHaveLength(4);

    const missing = await finance.post(`/api/staff/disbursements/${disbursementId}/paid`, { reference: ' ' });
    expect(missing.body.error.message).toBe('A transfer reference is required.');
    const paid = await finance.post(`/api/staff/disbursements/${disbursementId}/paid`, {
      reference: 'GC-778812',
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', reference: 'GC-778812' });
    const wallet = await agent.get('/api/wallet');
    expect(wallet.body.disbursements[0].status).toBe('paid');
    expect(wallet.body.inProcessing).toBe(false);
    expect(wallet.body.balance.availableMinor).toBe(10_000_000 - 500_000);
    expect(wallet.body.history[0]).toMatchObject({ kind: 'disbursement_paid' });
    const audit = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', disbursementId)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['disbursement.mark_paid']);
    // The list says who marked it and when; a payout still waiting has neither.
    const rows = (await officer.get('/api/staff/disbursements')).body.items as {
      id: string;
      decidedBy: string | null;
      decidedAt: string | null;
    }[];
    const marked = rows.find((i) => i.id === disbursementId)!;
    expect(marked.decidedBy).toBe(financeName);
    expect(Math.abs(Date.parse(marked.decidedAt!) - Date.now())).toBeLessThan(60_000);
    expect(rows.filter((i) => i.decidedAt === null).every((i) => i.decidedBy === null)).toBe(true);
    const events = await t.db
      .selectFrom('borrower_events')
      .select('kind')
      .where('borrower_id', '=', user.id)
      .execute();
    expect(events.map((e) => e.kind)).toEqual(['disbursement_paid']);
  });

  it('a failed payout gives the amount back', async () => {
    const { disbursementId, agent } = await requested(20000);
    expect((await agent.get('/api/wallet')).body.balance.availableMinor).toBe(8_000_000);
    const noReason = await finance.post(`/api/staff/disbursements/${disbursementId}/failed`, {});
    expect(noReason.body.error.message).toBe('A reason is required.');
    const failed = await finance.post(`/api/staff/disbursements/${disbursementId}/failed`, {
      reason: 'Account closed',
    });
    expect(failed.status).toBe(200);
    const wallet = await agent.get('/api/wallet');
    expect(wallet.body.balance.availableMinor).toBe(10_000_000);
    expect(wallet.body.disbursements[0]).toMatchObject({ status: 'failed', failureReason: 'Account closed' });
    const list = await officer.get('/api/staff/disbursements?status=failed');
    expect(list.body.items.find((i: { id: string }) => i.id === disbursementId)).toMatchObject({
      decidedBy: financeName,
      decidedAt: expect.any(String),
    });
  });

  it('only one of many simultaneous marks wins, and records are never deleted', async () => {
    const { disbursementId } = await requested();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? finance.post(`/api/staff/disbursements/${disbursementId}/paid`, { reference: `R${i}` })
          : finance.post(`/api/staff/disbursements/${disbursementId}/failed`, { reason: `F${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    await expect(t.db.deleteFrom('disbursements').where('id', '=', disbursementId).execute()).rejects.toThrow(
      /append-only/,
    );
  });

  it('officers and borrowers cannot mark payouts', async () => {
    const { disbursementId, agent } = await requested();
    expect(
      (await officer.post(`/api/staff/disbursements/${disbursementId}/paid`, { reference: 'X' })).status,
    ).toBe(403);
    expect(
      (await agent.post(`/api/staff/disbursements/${disbursementId}/paid`, { reference: 'X' })).status,
    ).toBe(403);
    expect((await agent.get('/api/staff/disbursements')).status).toBe(403);
    expect(await storedStatus(t.db, 'disbursements', disbursementId)).toBe('requested');
  });
});

describe('account', () => {
  it('shows the borrower their profile, credit score and support e-mail; avatars are 1–5', async () => {
    const { agent } = await borrowerWithLoan();
    const account = await agent.get('/api/account');
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ supportEmail: 'support@example.com', creditScore: 500 });
    expect(account.body.profile.fullName).toBe('Test Borrower');
    expect(account.body.loan.status).toBe('approved');
    expect((await agent.post('/api/account/avatar', { avatar: 3 })).body.user.avatar).toBe(3);
    for (const avatar of [0, 6, 2.5, 'x']) {
      const bad = await agent.post('/api/account/avatar', { avatar });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('AVATAR_INVALID');
    }
    expect((await finance.post('/api/account/avatar', { avatar: 2 })).status).toBe(200);
    expect((await finance.get('/api/account')).status).toBe(403);
  });
});
