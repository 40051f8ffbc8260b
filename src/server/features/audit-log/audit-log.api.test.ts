import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLabels } from '../../../domain/audit-fields';
import { formatMoney } from '../../../domain/money';
import { recordAudit, systemActor } from '../../audit/audit';
import { auditExportHeader, readCsv } from '../../test-support/csv';
import { loanNumberOf, seedApplication, seedBorrowerWithApplication } from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

let t: TestApp;
let admin: Agent;
let officer: Agent;
let officerName: string;
let loanId: string;
let loanNumber: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signInStaff('admin');
  const o = await t.createUser({ role: 'officer', username: 'auditofficer' });
  officerName = o.user.username!;
  officer = await t.loginAs(officerName, o.password);
  const b = await t.signUpBorrower();
  loanId = await seedApplication(t.db, { borrowerId: b.user.id, phone: b.phone, status: 'approved' });
  loanNumber = await loanNumberOf(t.db, loanId);
  await officer.post(`/api/staff/loans/${loanId}/status`, {
    action: 'hold',
    message: 'Call us, "urgent", please',
    reason: 'KYC, step 2',
  });
  await officer.post(`/api/staff/loans/${loanId}/status`, { action: 'release', reason: '=1+2' });
  await officer.post(`/api/staff/loans/${loanId}/message`, {
    message: '=HYPERLINK("x")',
    reason: 'Reminder\nline two',
  });
});
afterAll(() => t.close());

describe('audit log', () => {
  it('lists events newest first with who, role, action, target, before → after, reason and IP', async () => {
    const page = await admin.get(`/api/admin/audit?loan=${loanNumber}`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    const [message, release, hold] = page.body.items;
    expect(message).toMatchObject({
      action: 'loan.message_borrower',
      actorUsername: officerName,
      actorRole: 'officer',
      loanNumber,
    });
    expect(release.changes.status).toEqual({ before: 'on_hold', after: 'approved' });
    expect(hold).toMatchObject({
      action: 'loan.hold',
      reason: 'KYC, step 2',
      targetType: 'loan',
      targetId: loanId,
    });
    expect(hold.ip).toBeTruthy();
  });

  it('filters by actor, action, loan and date range', async () => {
    expect((await admin.get('/api/admin/audit?actor=AUDITOFF')).body.total).toBe(3);
    expect((await admin.get('/api/admin/audit?action=loan.hold')).body.total).toBe(1);
    expect((await admin.get('/api/admin/audit?actor=nobody')).body.total).toBe(0);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(new Date());
    expect(
      (await admin.get(`/api/admin/audit?from=${today}&to=${today}&loan=${loanNumber}`)).body.total,
    ).toBe(3);
    expect((await admin.get(`/api/admin/audit?to=2020-01-01`)).body.total).toBe(0);
    expect((await admin.get('/api/admin/audit?from=not-a-date')).status).toBe(400);
  });

  it('exports exactly the filtered rows as CSV, correctly quoted and formula-safe', async () => {
    const response = await admin.get(`/api/admin/audit.csv?loan=${loanNumber}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(
      /attachment; filename="hiram-audit-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const rows = readCsv(response.text);
    expect(rows[0]).toEqual(auditExportHeader);
    expect(rows.slice(1).map((r) => r[3])).toEqual(['loan.message_borrower', 'loan.release', 'loan.hold']);
    const hold = rows[3]!;
    expect(hold[7]).toBe('KYC, step 2');
    expect(hold[6]).toContain('statusMessage: — → Call us, "urgent", please');
    const message = rows[1]!;
    expect(message[6]).toBe('message: — → =HYPERLINK("x")');
    // A cell a spreadsheet would run as a formula is defused.
    expect(rows[2]![7]).toBe("'=1+2");
    expect(message[7]).toBe('Reminder\nline two');
    // The same filter on screen and in the file.
    const screen = await admin.get(`/api/admin/audit?loan=${loanNumber}`);
    expect(rows.length - 1).toBe(screen.body.total);
  });

  it('adds readable columns (money, statuses, labels) with headers in the asked language', async () => {
    const { id: pendingId } = await seedBorrowerWithApplication(t, { status: 'pending' });
    const number = await loanNumberOf(t.db, pendingId);
    const terms = await officer.post(`/api/staff/applications/pending/${pendingId}/terms`, {
      amount: 160000,
      termMonths: 24,
    });
    expect(terms.status).toBe(200);
    const before = (
      await t.db
        .selectFrom('audit_events')
        .select('changes')
        .where('target_id', '=', pendingId)
        .executeTakeFirstOrThrow()
    ).changes as Record<string, { before: number; after: number }>;

    const en = readCsv((await admin.get(`/api/admin/audit.csv?loan=${number}`)).text);
    expect(en).toHaveLength(2);
    const row = en[1]!;
    // The machine columns are unchanged: action code, role code, centavos.
    // A raise is proposed to the borrower (docs/decisions/018).
    expect(row[3]).toBe('terms.propose');
    expect(row[2]).toBe('officer');
    expect(row[6]).toContain(`amount: ${before.amount!.before} → 16000000`);
    expect(row[9]).toBe('Proposed new terms to borrower');
    expect(row[10]).toBe('Officer');
    expect(row[11]).toContain(
      `Amount: ${formatMoney(before.amount!.before, { locale: 'en-PH' })} → ₱160,000.00`,
    );
    expect(row[11]).toContain('Term (months): ');
    expect(row[11]).not.toMatch(/16000000|termMonths/);

    const zh = readCsv((await admin.get(`/api/admin/audit.csv?loan=${number}&lang=zh`)).text);
    expect(zh[0]!.slice(9)).toEqual(['操作（可读）', '角色（可读）', '变更（可读）']);
    expect(zh[0]![0]).toBe('时间');
    expect(zh[1]![3]).toBe('terms.propose');
    expect(zh[1]![9]).toBe(auditLabels.zh.actions.terms.propose);
    expect(zh[1]![10]).toBe('信贷员');
    expect(zh[1]![11]).toContain('金额: ');
    expect(zh[1]![11]).toContain('期限（月）: ');
    const fil = readCsv((await admin.get(`/api/admin/audit.csv?loan=${number}&lang=fil`)).text);
    expect(fil[0]![0]).toBe('Kailan');
    expect(fil[1]![9]).toBe('Nagmungkahi ng bagong tuntunin sa nanghihiram');
    expect(fil[1]![10]).toBe('Opisyal');
    expect(fil[1]![11]).toContain('Tagal (buwan): ');

    // The hold: statuses by name, a missing value as —.
    const hold = readCsv(
      (await admin.get(`/api/admin/audit.csv?loan=${loanNumber}&action=loan.hold`)).text,
    )[1]!;
    expect(hold[11]).toBe('Status: Approved → On hold; Message to borrower: — → Call us, "urgent", please');

    expect((await admin.get('/api/admin/audit.csv?lang=fr')).status).toBe(400);
  });

  it('names every field of a newer action and writes a moment in the configured time zone', async () => {
    await t.db.transaction().execute((trx) =>
      recordAudit(trx, systemActor('payments-webhook', null), {
        action: 'payment.receive',
        targetType: 'unapplied_payment',
        targetId: randomUUID(),
        loanId,
        after: { amountMinor: 500_000, receivedAt: '2026-11-20T06:05:09.000Z', payerReference: 'GC-77' },
      }),
    );
    const rows = readCsv(
      (await admin.get(`/api/admin/audit.csv?loan=${loanNumber}&action=payment.receive`)).text,
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]![9]).toBe('Kept unapplied payment');
    // 06:05 UTC is 14:05 in Manila, as the When column writes it.
    expect(rows[1]![11]!.split('; ').sort()).toEqual([
      'Amount: — → ₱5,000.00',
      "Payer's reference: — → GC-77",
      'Received at: — → 2026-11-20 14:05:09',
    ]);
  });

  it('has no route that changes or removes an event, and the table refuses both', async () => {
    const writes = t.app.apiRoutes.filter((r) => r.url.includes('audit') && r.method !== 'GET');
    expect(writes).toEqual([]);
    await expect(t.db.updateTable('audit_events').set({ reason: 'x' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(t.db.deleteFrom('audit_events').execute()).rejects.toThrow(/append-only/);
  });

  it('is admin only', async () => {
    expect((await officer.get('/api/admin/audit')).status).toBe(403);
    expect((await officer.get('/api/admin/audit.csv')).status).toBe(403);
  });
});
