import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { addDays, addMonthsClamped } from '../../../domain/loan/calendar';
import { smsCatalogue } from '../../../domain/sms-texts';
import { runPaymentReminders } from '../../jobs/payment-reminders';
import { multipartBody } from '../../test-support/images';
import { seedApplication, seedPaidDisbursement } from '../../test-support/seed';
import { deliverOutboxAtNoon } from '../../test-support/sms-outbox';
import { type Agent, createTestApp, type TestApp, testConsent } from '../../test-support/test-app';
import { sendWithdrawalCode } from '../../test-support/withdrawal';

/**
 * Issue #36: every SMS in the borrower's own language. A borrower who signs up on the Khmer screen is sent
 * every message in Khmer (codes, a payment reminder, a complaint reply); after switching the app to Filipino
 * the next ones are in Filipino; a language staff set at the borrower's request is used from then on. English
 * readers are covered by the existing tests of each message, which still read English.
 */
const clock = { at: null as Date | null, now: () => clock.at ?? new Date() };
let t: TestApp;
let officer: Agent;

const PAYOUT_DAY = todayIn('Asia/Manila');
const FIRST_DUE = addMonthsClamped(PAYOUT_DAY, 1);
const manila = (date: string, time: string) => new Date(`${date}T${time}:00+08:00`);

const english = smsCatalogue.en;
const khmer = smsCatalogue.km;
const filipino = smsCatalogue.fil;
const chinese = smsCatalogue.zh;

beforeAll(async () => {
  t = await createTestApp({ clock });
  officer = await t.signInStaff('officer');
});
afterAll(() => t.close());

async function messages(phone: string, purpose?: string) {
  const response = await t.local().get(`/api/dev/outbox?phone=${phone}`);
  const all = response.body.messages as { text: string; purpose: string }[];
  return all.filter((m) => purpose === undefined || m.purpose === purpose).map((m) => m.text);
}

/** The newest message of `purpose`, asserted to be there. */
async function newest(phone: string, purpose: string) {
  const [text] = await messages(phone, purpose);
  expect(text, `no ${purpose} SMS to ${phone}`).toBeDefined();
  return text!;
}

/** Not English: no sentence of the English catalogue's code, reminder or complaint texts in it. */
function expectNotEnglish(text: string) {
  expect(text).not.toContain(english.safety);
  expect(text).not.toMatch(/\b(your|code is|reminder|complaint|expires|please)\b/i);
}

async function runRemindersAt(date: string, time: string) {
  clock.at = manila(date, time);
  try {
    await runPaymentReminders(t.deps);
  } finally {
    clock.at = null;
  }
}

describe('SMS in the borrower’s language', () => {
  it('Khmer from the sign-up screen, Filipino after switching, then the language staff set', async () => {
    // Sign-up on the Khmer screen: the code SMS is Khmer, and the account keeps Khmer.
    const phone = t.nextPhone();
    const password = 'borrower-password-1';
    const browser = t.agent();
    const sent = await browser.post('/api/auth/signup/code', { phone, language: 'km' });
    expect(sent.status, sent.text).toBe(200);
    const signupSms = await newest(phone, 'signup');
    expect(signupSms).toContain(khmer.safety);
    expect(signupSms).toContain('លេខកូដចុះឈ្មោះ');
    expectNotEnglish(signupSms);
    const signed = await browser.post('/api/auth/signup', {
      phone,
      password,
      confirmPassword: password,
      code: await t.latestCode(phone),
      language: 'km',
      ...testConsent(t.deps),
    });
    expect(signed.status, signed.text).toBe(201);
    const user = await t.db
      .selectFrom('users')
      .select(['id', 'language'])
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    expect(user.language).toBe('km');

    // Someone else tries to sign up with the phone (a day later: the codes of the sign-up are gone): its
    // owner's notice is in Khmer, whatever the other screen showed.
    await t.db.deleteFrom('verification_codes').where('phone', '=', phone).execute();
    expect((await t.agent().post('/api/auth/signup/code', { phone, language: 'en' })).status).toBe(200);
    const notice = await newest(phone, 'signup');
    expect(notice).toBe(khmer.signupNotice);

    // A loan: ₱100,000 approved, ₱50,000 paid out today.
    const loanId = await seedApplication(t.db, { borrowerId: user.id, phone, status: 'approved' });
    await seedPaidDisbursement(t.db, loanId, { amountMinor: 5_000_000 }, t.deps);
    const borrower = await t.loginAs(phone, password);
    // Signed in on another phone: the account says its language, for that screen to follow.
    expect((await borrower.get('/api/me')).body.user.language).toBe('km');

    // A withdrawal code: Khmer, with the amount and the safety line.
    const code = await sendWithdrawalCode(borrower, 10_000);
    expect(code.status, code.text).toBe(200);
    const withdrawalSms = await newest(phone, 'withdrawal');
    expect(withdrawalSms).toContain('លេខកូដដកប្រាក់');
    expect(withdrawalSms).toContain('10,000.00₱');
    expect(withdrawalSms).toContain(khmer.safety);
    expectNotEnglish(withdrawalSms);

    // A payment reminder: Khmer, the date in Khmer month names.
    await runRemindersAt(addDays(FIRST_DUE, -3), '10:00');
    const khmerReminder = await newest(phone, 'payment_reminder');
    expect(khmerReminder).toContain('ការរំលឹកពី Hiram');
    expect(khmerReminder).toMatch(/មករា|កុម្ភៈ|មីនា|មេសា|ឧសភា|មិថុនា|កក្កដា|សីហា|កញ្ញា|តុលា|វិច្ឆិកា|ធ្នូ/);
    expectNotEnglish(khmerReminder);

    // A complaint reply: Khmer.
    const form = multipartBody({ category: 'fees_and_charges', text: 'A fee I did not expect.' }, []);
    const filed = await borrower.request('POST', '/api/complaints', {
      raw: form.payload,
      headers: { 'content-type': form.contentType },
    });
    expect(filed.status, filed.text).toBe(201);
    const complaintId = filed.body.id as string;
    const reference = filed.body.reference as string;
    const replied = await officer.post(`/api/staff/complaints/${complaintId}/replies`, {
      message: 'Checking.',
    });
    expect(replied.status, replied.text).toBe(200);
    await deliverOutboxAtNoon(t.deps);
    const khmerReply = await newest(phone, 'complaint_update');
    expect(khmerReply).toBe(khmer.complaintReply.replace('{reference}', reference));

    // The borrower switches the app to Filipino: the next messages are Filipino.
    const switched = await borrower.post('/api/account/language', { language: 'fil' });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.body).toEqual({ language: 'fil' });
    expect((await borrower.get('/api/me')).body.user.language).toBe('fil');
    await runRemindersAt(FIRST_DUE, '09:00');
    const filipinoReminder = await newest(phone, 'payment_reminder');
    expect(filipinoReminder).toContain('Paalala ng Hiram');
    expect(filipinoReminder).toContain('ngayong araw');
    expectNotEnglish(filipinoReminder);
    const resolved = await officer.post(`/api/staff/complaints/${complaintId}/resolve`, {
      note: 'The fee was refunded.',
    });
    expect(resolved.status, resolved.text).toBe(200);
    await deliverOutboxAtNoon(t.deps);
    expect(await newest(phone, 'complaint_update')).toBe(
      filipino.complaintResolved.replace('{reference}', reference),
    );

    // The borrower calls and asks for Chinese: the officer sets it, audited, and it is used from then on.
    const changed = await officer.post(`/api/staff/loans/${loanId}/language`, {
      language: 'zh',
      reason: 'Borrower asked by phone',
    });
    expect(changed.status, changed.text).toBe(200);
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['action', 'target_id', 'loan_id', 'changes', 'reason'])
      .where('action', '=', 'user.change_language')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      target_id: user.id,
      loan_id: loanId,
      changes: { language: { before: 'fil', after: 'zh' } },
      reason: 'Borrower asked by phone',
    });
    const reset = await t.agent().post('/api/auth/password-reset/code', { phone });
    expect(reset.status, reset.text).toBe(200);
    const resetSms = await newest(phone, 'password_reset');
    expect(resetSms).toContain('密码重置验证码');
    expect(resetSms).toContain(chinese.safety);
    expectNotEnglish(resetSms);
  });

  it('refuses a language the app does not have, and keeps English for a sign-up that names none', async () => {
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    const refused = await agent.post('/api/account/language', { language: 'de' });
    expect(refused.status).toBe(400);
    expect(b.user.language).toBe('en');
    expect(await newest(b.phone, 'signup')).toContain(english.safety);

    // Staff set another borrower's language only through a loan of theirs, and only officers and admins.
    const unknownLoan = await officer.post('/api/staff/loans/00000000-0000-4000-8000-000000000000/language', {
      language: 'km',
      reason: 'asked',
    });
    expect(unknownLoan.status).toBe(404);
  });
});
