import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplication, seedRequestedDisbursement, storedStatus } from '../../test-support/seed';
import { acceptProposedTerms } from '../../test-support/terms';
import {
  type Agent,
  asIfEachOnItsOwnInstance,
  createTestApp,
  type TestApp,
} from '../../test-support/test-app';

let t: TestApp;
let officer: Agent;
let finance: Agent;
let admin: Agent;
let officerPhone: string;

beforeAll(async () => {
  t = await createTestApp();
  const o = await t.createUser({ role: 'officer' });
  officerPhone = o.user.phone!;
  officer = await t.loginAs(o.user.username!, o.password);
  finance = await t.signInStaff('finance');
  admin = await t.signInStaff('admin');
});
afterAll(() => t.close());

async function borrowerWith(status: 'pending' | 'approved' | 'rejected' = 'pending', fullName = 'Ana Reyes') {
  const { user, password, phone } = await t.signUpBorrower();
  const id = await seedApplication(t.db, { borrowerId: user.id, phone, fullName, status });
  return { id, user, phone, agent: await t.loginAs(phone, password) };
}

describe('lists', () => {
  it('pages 10 at a time and searches by name (case-insensitive, trimmed) and phone, both matching', async () => {
    const { user } = await t.signUpBorrower();
    const marker = `Zzq${Date.now().toString(36)}`;
    for (let i = 0; i < 23; i++) {
      await seedApplication(t.db, {
        borrowerId: user.id,
        fullName: `${marker} Person ${i}`,
        phone: `0999${String(i).padStart(7, '0')}`,
        status: i === 0 ? 'pending' : 'rejected',
      });
    }
    // One open application per borrower: hand the others to fresh borrowers, then make them pending.
    for (let i = 1; i < 23; i++) {
      const other = await t.signUpBorrower();
      await t.db
        .updateTable('applications')
        .set({ status: 'pending', borrower_id: other.user.id })
        .where('full_name', '=', `${marker} Person ${i}`)
        .execute();
    }

    const page1 = await officer.get(
      `/api/staff/applications/pending?name=${encodeURIComponent(`  ${marker.toUpperCase()} `)}`,
    );
    expect(page1.status).toBe(200);
    expect(page1.body.total).toBe(23);
    expect(page1.body.items).toHaveLength(10);
    expect(page1.body.pageCount).toBe(3);
    const page3 = await officer.get(`/api/staff/applications/pending?name=${marker}&page=3`);
    expect(page3.body.items).toHaveLength(3);
    const beyond = await officer.get(`/api/staff/applications/pending?name=${marker}&page=9`);
    expect(beyond.body.items).toHaveLength(0);
    expect(beyond.body.total).toBe(23);

    const all = [
      ...page1.body.items,
      ...(await officer.get(`/api/staff/applications/pending?name=${marker}&page=2`)).body.items,
      ...page3.body.items,
    ];
    expect(new Set(all.map((i: { id: string }) => i.id)).size).toBe(23);

    const both = await officer.get(`/api/staff/applications/pending?name=${marker}&phone=0000012`);
    expect(both.body.items.map((i: { fullName: string }) => i.fullName)).toEqual([`${marker} Person 12`]);
    const mismatch = await officer.get(`/api/staff/applications/pending?name=nobody-${marker}&phone=0000012`);
    expect(mismatch.body).toMatchObject({ total: 0, items: [], pageCount: 1 });
  });

  it('treats LIKE wildcards in a search literally and refuses a non-digit phone search', async () => {
    const percent = await officer.get('/api/staff/applications/pending?name=%25');
    expect(percent.status).toBe(200);
    expect(percent.body.total).toBe(0);
    const underscore = await officer.get('/api/staff/applications/pending?name=_');
    expect(underscore.body.total).toBe(0);
    const bad = await officer.get('/api/staff/applications/pending?phone=abc');
    expect(bad.status).toBe(400);
    const badPage = await officer.get('/api/staff/applications/pending?page=0');
    expect(badPage.status).toBe(400);
  });

  it('lists approved loans with who approved them', async () => {
    const { id } = await borrowerWith('pending', 'Approved Listing');
    expect((await officer.post(`/api/staff/applications/${id}/approve`, { creditScore: 650 })).status).toBe(
      200,
    );
    const list = await finance.get('/api/staff/applications/approved?name=approved listing');
    expect(list.status).toBe(200);
    expect(list.body.items[0]).toMatchObject({ id, status: 'approved', creditScore: 650 });
    expect(list.body.items[0].decidedBy).toMatch(/^officer/);
  });
});

describe('permissions', () => {
  it('lets every staff role read and only officers and admins decide', async () => {
    const { id, agent: borrower } = await borrowerWith();
    for (const staff of [officer, finance, admin]) {
      expect((await staff.get('/api/staff/applications/pending')).status).toBe(200);
      expect((await staff.get(`/api/staff/applications/${id}`)).status).toBe(200);
      expect((await staff.get('/api/staff/dashboard')).status).toBe(200);
      expect((await staff.get('/api/staff/pending-count')).status).toBe(200);
    }
    expect((await borrower.get('/api/staff/applications/pending')).status).toBe(403);
    expect((await borrower.get(`/api/staff/applications/${id}`)).status).toBe(403);
    expect((await borrower.post(`/api/staff/applications/${id}/approve`, {})).status).toBe(403);
    expect((await t.agent().get('/api/staff/applications/pending')).status).toBe(401);
    expect((await t.agent().get('/api/staff/dashboard')).status).toBe(401);

    expect((await finance.post(`/api/staff/applications/${id}/approve`, {})).status).toBe(403);
    expect((await finance.post(`/api/staff/applications/${id}/reject`, { reason: 'x' })).status).toBe(403);
    expect(
      (await finance.post(`/api/staff/applications/pending/${id}/terms`, { amount: 60000, termMonths: 6 }))
        .status,
    ).toBe(403);
    expect(await storedStatus(t.db, 'applications', id)).toBe('pending');
  });
});

describe('decisions', () => {
  it('approves in one transaction with an audit event and a borrower notice; the borrower sees Approved', async () => {
    const { id, agent: borrower, user } = await borrowerWith();
    const response = await officer.post(`/api/staff/applications/${id}/approve`, {});
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'approved',
      creditScore: 500,
      approvedAmountMinor: 10_000_000,
    });
    expect(response.body.decidedBy).toMatch(/^officer/);
    const mine = await borrower.get('/api/applications/mine');
    expect(mine.body.application.status).toBe('approved');
    const audit = await t.db.selectFrom('audit_events').selectAll().where('target_id', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'application.approve', actor_role: 'officer', loan_id: id });
    expect(audit[0]!.changes).toMatchObject({ status: { before: 'pending', after: 'approved' } });
    expect(audit[0]!.ip).toBeTruthy();
    const notices = await t.db
      .selectFrom('borrower_events')
      .selectAll()
      .where('borrower_id', '=', user.id)
      .execute();
    expect(notices.map((n) => n.kind)).toEqual(['approved']);
  });

  it('refuses a bad credit score and changes nothing', async () => {
    const { id } = await borrowerWith();
    for (const creditScore of [-1, 1001, 'abc', 12.5]) {
      const response = await officer.post(`/api/staff/applications/${id}/approve`, { creditScore });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('CREDIT_SCORE_INVALID');
    }
    expect(await storedStatus(t.db, 'applications', id)).toBe('pending');
  });

  it('rejects only with a reason and keeps the record as Rejected', async () => {
    const { id, agent: borrower } = await borrowerWith();
    for (const body of [{}, { reason: '' }, { reason: '   ' }]) {
      const response = await officer.post(`/api/staff/applications/${id}/reject`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe('A reason is required.');
    }
    const response = await admin.post(`/api/staff/applications/${id}/reject`, {
      reason: 'Income could not be verified',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'rejected', rejectReason: 'Income could not be verified' });
    const mine = await borrower.get('/api/applications/mine');
    expect(mine.body.application).toMatchObject({
      status: 'rejected',
      rejectReason: 'Income could not be verified',
    });
    expect(mine.body.canApply).toBe(true);
    const again = await officer.post(`/api/staff/applications/${id}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This application has already been decided.');
  });

  it('refuses a decision on the staff member’s own application: their own account, whatever phone was typed', async () => {
    // A borrower who later joined the staff: the application is theirs by the account.
    const b = await t.signUpBorrower();
    const id = await seedApplication(t.db, { borrowerId: b.user.id, phone: t.nextPhone() });
    await t.db
      .updateTable('users')
      .set({ role: 'officer', username: t.nextUsername('was.borrower') })
      .where('id', '=', b.user.id)
      .execute();
    const self = await t.loginAs(b.phone, b.password);
    for (const decision of [
      self.post(`/api/staff/applications/${id}/approve`, {}),
      self.post(`/api/staff/applications/${id}/reject`, { reason: 'mine' }),
    ]) {
      const response = await decision;
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('OWN_APPLICATION');
    }
    expect((await admin.post(`/api/staff/applications/${id}/approve`, {})).status).toBe(200);
  });

  it('lets an officer decide an application on which a borrower typed the officer’s phone', async () => {
    const { user } = await t.signUpBorrower();
    const id = await seedApplication(t.db, { borrowerId: user.id, phone: officerPhone });
    const response = await officer.post(`/api/staff/applications/${id}/approve`, {});
    expect(response.status, response.text).toBe(200);
    const rejectable = await seedApplication(t.db, {
      borrowerId: (await t.signUpBorrower()).user.id,
      phone: officerPhone,
    });
    expect(
      (await officer.post(`/api/staff/applications/${rejectable}/reject`, { reason: 'no' })).status,
    ).toBe(200);
  });

  it.each([
    ['on one instance', (work: () => Promise<void>) => work()],
    ['each on an instance of its own', (work: () => Promise<void>) => asIfEachOnItsOwnInstance(t, work)],
  ])('lets exactly one of many simultaneous decisions win, %s', (_, instances) =>
    instances(async () => {
      const { id } = await borrowerWith();
      const deciders = await Promise.all(
        Array.from({ length: 24 }, async (_, i) => {
          const { user, password } = await t.createUser({ role: i % 2 ? 'officer' : 'admin' });
          return t.loginAs(user.username!, password);
        }),
      );
      const results = await Promise.all(
        deciders.map((agent, i) =>
          i % 3 === 0
            ? agent.post(`/api/staff/applications/${id}/reject`, { reason: `no ${i}` })
            : agent.post(`/api/staff/applications/${id}/approve`, { creditScore: 400 + i }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      const lost = results.filter((r) => r.status === 409);
      expect(ok).toHaveLength(1);
      expect(lost).toHaveLength(23);
      for (const r of lost) expect(r.body.error.message).toBe('This application has already been decided.');
      const audit = await t.db
        .selectFrom('audit_events')
        .select('action')
        .where('target_id', '=', id)
        .execute();
      expect(audit).toHaveLength(1);
    }),
  );

  it('returns 404 for an unknown application', async () => {
    const response = await officer.post(
      '/api/staff/applications/00000000-0000-4000-8000-000000000000/approve',
      {},
    );
    expect(response.status).toBe(404);
  });
});

describe('update loan', () => {
  it('refuses an amount no product allows, however large, with the field named (found by the fuzzer: was a 500)', async () => {
    const { id } = await borrowerWith();
    for (const amount of [90_071_992_547_410, Number.MAX_SAFE_INTEGER]) {
      const response = await officer.post(`/api/staff/applications/pending/${id}/terms`, {
        amount,
        termMonths: 12,
      });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'LOAN_UPDATE_INVALID',
        fields: { amount: { code: 'LOAN_UPDATE_INVALID' } },
      });
    }
    expect((await officer.get(`/api/staff/applications/${id}`)).body).toMatchObject({
      termsChangePending: false,
    });
  });

  it('proposes new amount and term of a pending application; once accepted the payment is recomputed', async () => {
    const { id, user, agent, phone } = await borrowerWith();
    const response = await officer.post(`/api/staff/applications/pending/${id}/terms`, {
      amount: 120000,
      termMonths: 24,
    });
    expect(response.status).toBe(200);
    // Signed terms bind: the change waits for the borrower (docs/decisions/018).
    expect(response.body).toMatchObject({
      amountMinor: 10_000_000,
      termMonths: 12,
      termsChangePending: true,
    });
    expect((await acceptProposedTerms(t, agent, phone)).status).toBe(200);
    // 120,000 over 24 months at 2%: P·r/(1−(1+r)^−n) = 6,344.53
    expect((await officer.get(`/api/staff/applications/${id}`)).body).toMatchObject({
      amountMinor: 12_000_000,
      termMonths: 24,
      monthlyPaymentMinor: 634_453,
      termsChangePending: false,
    });
    const audit = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('terms.propose');
    expect(audit.changes.amount).toEqual({ before: 10_000_000, after: 12_000_000 });
    const notice = await t.db
      .selectFrom('borrower_events')
      .selectAll()
      .where('borrower_id', '=', user.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(notice.kind).toBe('terms_change_proposed');
  });

  it.each([
    [{ amount: 40000, termMonths: 6 }],
    [{ amount: 2_010_000, termMonths: 6 }],
    [{ amount: 55000, termMonths: 6 }],
    [{ amount: 100000, termMonths: 9 }],
    [{}],
  ])('refuses %j with the SPEC message', async (body) => {
    const { id } = await borrowerWith();
    const response = await officer.post(`/api/staff/applications/pending/${id}/terms`, body);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Please enter a valid loan amount and loan period.');
  });

  it.each(['pending', 'approved'] as const)(
    'gives a small %s loan a new term without forcing the staff minimum on it',
    async (queue) => {
      const { user, phone } = await t.signUpBorrower();
      const id = await seedApplication(t.db, {
        borrowerId: user.id,
        phone,
        status: queue,
        amountMinor: 1_000_000,
        termMonths: 6,
      });
      const kept = await officer.post(`/api/staff/applications/${queue}/${id}/terms`, {
        amount: 10000,
        termMonths: 12,
      });
      expect(kept.status, kept.text).toBe(200);
      // A new term is proposed to the borrower (docs/decisions/018), with the amount kept.
      expect(kept.body).toMatchObject({
        amountMinor: 1_000_000,
        termMonths: 6,
        proposedTerms: { amountMinor: 1_000_000, termMonths: 12 },
      });
      // A changed amount is what staff propose: it must be in the staff range (₱50,000 and up).
      const raised = await officer.post(`/api/staff/applications/${queue}/${id}/terms`, {
        amount: 20000,
        termMonths: 12,
      });
      expect(raised.status).toBe(400);
      expect(raised.body.error.message).toBe('Please enter a valid loan amount and loan period.');
      const row = await t.db
        .selectFrom('applications')
        .select(['amount', 'term_months'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ amount: 1_000_000, term_months: 6 });
    },
  );

  it('never lowers an approved amount below what was already withdrawn', async () => {
    const { id } = await borrowerWith('approved');
    await seedRequestedDisbursement(t.db, id, 7_000_000);
    const low = await officer.post(`/api/staff/applications/approved/${id}/terms`, {
      amount: 60000,
      termMonths: 12,
    });
    expect(low.status).toBe(400);
    expect(low.body.error).toMatchObject({
      code: 'AMOUNT_BELOW_WITHDRAWN',
      message: 'The amount cannot be less than what has already been withdrawn (₱70,000.00).',
      // A number for each reader to show in its own language, not preformatted text.
      params: { amountMinor: 7_000_000 },
    });
    const ok = await officer.post(`/api/staff/applications/approved/${id}/terms`, {
      amount: 70000,
      termMonths: 12,
      borrowerRequested: true,
      reason: 'The borrower asked to stop at what was withdrawn',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      approvedAmountMinor: 7_000_000,
      withdrawnMinor: 7_000_000,
      availableMinor: 0,
    });
    // A pending-queue update does not apply to an approved loan.
    expect(
      (await officer.post(`/api/staff/applications/pending/${id}/terms`, { amount: 70000, termMonths: 12 }))
        .status,
    ).toBe(409);
  });
});

describe('dashboard', () => {
  it('computes every figure from the database', async () => {
    const before = (await admin.get('/api/staff/dashboard')).body;
    const { user } = await t.signUpBorrower();
    await seedApplication(t.db, { borrowerId: user.id, amountMinor: 5_000_000, status: 'pending' });
    const second = await t.signUpBorrower();
    await seedApplication(t.db, { borrowerId: second.user.id, amountMinor: 30_000_000, status: 'rejected' });
    // Seeded straight into the table: tell the app, as a real submission does.
    await t.deps.events.publish({ type: 'applications-changed' });
    const after = (await admin.get('/api/staff/dashboard')).body;
    expect(after.registeredToday).toBe(before.registeredToday + 2);
    expect(after.registeredTotal).toBe(before.registeredTotal + 2);
    expect(after.pendingLoans).toBe(before.pendingLoans + 1);
    expect(after.rejectedLoans).toBe(before.rejectedLoans + 1);
    expect(after.totalLoans).toBe(before.totalLoans + 2);
    expect(after.maxLoanTodayMinor).toBeGreaterThanOrEqual(30_000_000);
    expect(after.minLoanTodayMinor).toBeLessThanOrEqual(5_000_000);

    const totals = await t.db
      .selectFrom('applications')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.avg<string>('amount').as('avg')])
      .executeTakeFirstOrThrow();
    expect(after.totalLoans).toBe(Number(totals.n));
    expect(after.avgLoanMinor).toBe(Math.round(Number(totals.avg)));
    expect(after.disbursedTodayMinor).toBe(0);
    expect(after.timeZone).toBe('Asia/Manila');
  });
});
