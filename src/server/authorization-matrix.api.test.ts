import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Permission, rolesFor } from '../domain/permissions';
import { type Role, roles, staffRoles } from '../domain/roles';
import { DEFAULT_PRIVACY_NOTICE_VERSION } from './config';
import { jpegWithGps, multipartBody, signaturePng } from './test-support/images';
import { type RouteFixtures, seedRouteFixtures } from './test-support/route-fixtures';
import { type Agent, type ApiResponse, createTestApp, type TestApp } from './test-support/test-app';

/**
 * Every API route, for every kind of caller: signed out, a borrower acting on their own objects, another
 * borrower, officer, finance and admin. The routes come from the app itself, so a new route without an
 * entry here fails this test. Each entry names the permission its guard checks; who may pass comes from the
 * one permission table (src/domain/permissions.ts, checked against SPEC §1 in permissions.test.ts).
 */
type Actor = 'anonymous' | 'owner' | 'otherBorrower' | 'officer' | 'finance' | 'admin';
const actors: Actor[] = ['anonymous', 'owner', 'otherBorrower', 'officer', 'finance', 'admin'];

interface Fixture extends RouteFixtures {
  ownerPhone: string;
}

interface Entry {
  /**
   * 'public': anyone, signed in or not (checked for the anonymous caller only). 'signedIn': any role. A
   * permission (or several: any of them) from the permission table. 'secondFactorStep': only a browser that
   * gave the password and still owes the second factor (none of the callers here, so all are refused).
   */
  guard: 'public' | 'signedIn' | 'secondFactorStep' | Permission | readonly Permission[];
  /** Serves a borrower only their own object: another borrower gets "not found", as if it did not exist. */
  ownObject?: boolean;
  path?: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  multipart?: boolean;
  /** Never-ending responses (server-sent events): only refusals are checked here. */
  streaming?: boolean;
  /** Ends the caller's sessions: the caller signs in again afterwards. */
  endsSessions?: boolean;
}

function allowedRoles(entry: Entry): readonly Role[] {
  if (entry.guard === 'public' || entry.guard === 'signedIn') return roles;
  if (entry.guard === 'secondFactorStep') return [];
  const guards: readonly Permission[] = typeof entry.guard === 'string' ? [entry.guard] : entry.guard;
  return roles.filter((role) => guards.some((permission) => rolesFor(permission).includes(role)));
}

const reason = 'matrix test';

const matrix: Record<string, Entry> = {
  'GET /api/health': { guard: 'public' },
  'GET /api/health/ready': { guard: 'public' },
  'GET /api/me': { guard: 'public' },
  'GET /api/settings': { guard: 'public' },
  'POST /api/auth/signup/code': { guard: 'public', body: () => ({ phone: '09990000001' }) },
  'POST /api/auth/signup': {
    guard: 'public',
    body: () => ({
      phone: '09990000001',
      password: 'tamaraw herd 9',
      confirmPassword: 'tamaraw herd 9',
      code: '123456',
      privacyNoticeVersion: DEFAULT_PRIVACY_NOTICE_VERSION,
    }),
  },
  'POST /api/auth/password-reset/code': { guard: 'public', body: () => ({ phone: '09990000002' }) },
  'POST /api/auth/password-reset': {
    guard: 'public',
    body: () => ({
      phone: '09990000002',
      code: '123456',
      password: 'tamaraw herd 9',
      confirmPassword: 'tamaraw herd 9',
    }),
  },
  'POST /api/auth/login': {
    guard: 'public',
    body: () => ({ identifier: 'nobody', password: 'wrong-password' }),
  },
  'POST /api/auth/logout': { guard: 'public' },
  'POST /api/auth/logout-everywhere': { guard: 'signedIn', endsSessions: true },
  'POST /api/auth/second-factor': { guard: 'secondFactorStep', body: () => ({ code: '123456' }) },
  'POST /api/auth/second-factor/passkey/options': { guard: 'secondFactorStep' },
  'POST /api/auth/second-factor/passkey': {
    guard: 'secondFactorStep',
    body: () => ({ response: { id: 'x', type: 'public-key' } }),
  },
  'GET /api/account/security': { guard: 'backOffice.view' },
  'POST /api/account/security/totp/setup': { guard: 'backOffice.view' },
  'POST /api/account/security/totp/confirm': { guard: 'backOffice.view', body: () => ({ code: '123456' }) },
  'POST /api/account/security/passkeys/options': { guard: 'backOffice.view' },
  'POST /api/account/security/passkeys': {
    guard: 'backOffice.view',
    body: () => ({ name: 'Key', response: { id: 'x', type: 'public-key' } }),
  },
  'DELETE /api/account/security/passkeys/:id': {
    guard: 'backOffice.view',
    path: () => '/api/account/security/passkeys/not-a-passkey',
  },
  'POST /api/auth/password': {
    guard: 'signedIn',
    body: () => ({
      currentPassword: 'not-my-password',
      newPassword: 'another pass 1',
      confirmPassword: 'another pass 1',
    }),
  },
  'GET /api/dev/outbox': { guard: 'public', path: (f) => `/api/dev/outbox?phone=${f.ownerPhone}` },
  'GET /api/files/:id': {
    guard: ['loan.viewOwn', 'backOffice.view'],
    ownObject: true,
    path: (f) => `/api/files/${f.documentId}`,
  },
  'GET /api/applications/mine': { guard: 'loan.viewOwn' },
  'GET /api/products': { guard: 'application.apply' },
  'POST /api/applications/quote': {
    guard: 'application.apply',
    body: () => ({ amount: 100000, termMonths: 6 }),
  },
  'POST /api/applications': { guard: 'application.apply', multipart: true },
  'GET /api/applications/disclosure.pdf': {
    guard: 'application.apply',
    path: () => '/api/applications/disclosure.pdf?amount=100000&termMonths=6',
  },
  // The fixture loan's snapshot is a placeholder: past the guard, "loan not found".
  'GET /api/wallet/disclosure.pdf': { guard: 'loan.viewOwn' },
  'GET /api/wallet/agreement.pdf': { guard: 'loan.viewOwn' },
  'GET /api/staff/applications/:id/agreement.pdf': {
    guard: 'backOffice.view',
    path: (f) => `/api/staff/applications/${f.loanId}/agreement.pdf`,
  },
  'GET /api/staff/applications/pending': { guard: 'backOffice.view' },
  'GET /api/staff/applications/approved': { guard: 'backOffice.view' },
  'POST /api/staff/applications/pending/:id/terms': {
    guard: 'application.editTerms',
    path: (f) => `/api/staff/applications/pending/${f.pendingId}/terms`,
    body: () => ({ amount: 100000, termMonths: 12 }),
  },
  'POST /api/staff/applications/approved/:id/terms': {
    guard: 'loan.changeAmount',
    path: (f) => `/api/staff/applications/approved/${f.loanId}/terms`,
    body: () => ({ amount: 100000, termMonths: 12 }),
  },
  'GET /api/staff/applications/:id': {
    guard: 'backOffice.view',
    path: (f) => `/api/staff/applications/${f.pendingId}`,
  },
  'POST /api/staff/applications/:id/approve': {
    guard: 'application.decide',
    path: (f) => `/api/staff/applications/${f.pendingId}/approve`,
    body: () => ({ creditScore: 500 }),
  },
  'POST /api/staff/applications/:id/reject': {
    guard: 'application.decide',
    path: (f) => `/api/staff/applications/${f.pendingId}/reject`,
    body: () => ({ reason }),
  },
  'POST /api/staff/applications/:id/confirm-approval': {
    guard: 'application.decide',
    path: (f) => `/api/staff/applications/${f.pendingId}/confirm-approval`,
  },
  'POST /api/staff/applications/:id/terms-change/withdraw': {
    guard: 'application.editTerms',
    path: (f) => `/api/staff/applications/${f.pendingId}/terms-change/withdraw`,
    body: () => ({ reason }),
  },
  // Signed terms bind: the borrower's statements and their answer to a change (no change in the fixture:
  // past the guard, "not found" for every borrower).
  'GET /api/wallet/terms': { guard: 'loan.viewOwn' },
  'POST /api/wallet/terms-changes/:id/code': {
    guard: 'loan.viewOwn',
    path: (f) => `/api/wallet/terms-changes/${f.loanId}/code`,
  },
  'POST /api/wallet/terms-changes/:id/accept': {
    guard: 'loan.viewOwn',
    path: (f) => `/api/wallet/terms-changes/${f.loanId}/accept`,
    body: () => ({ code: '123456' }),
  },
  'POST /api/wallet/terms-changes/:id/decline': {
    guard: 'loan.viewOwn',
    path: (f) => `/api/wallet/terms-changes/${f.loanId}/decline`,
  },
  'GET /api/staff/dashboard': { guard: 'backOffice.view' },
  'GET /api/staff/dashboard/portfolio': { guard: 'backOffice.view' },
  'GET /api/staff/overdue': { guard: 'backOffice.view' },
  'GET /api/staff/pending-count': { guard: 'backOffice.view' },
  'GET /api/staff/events': { guard: 'backOffice.view', streaming: true },
  'GET /api/wallet': { guard: 'loan.viewOwn' },
  // The fixture loan has no payout yet: past the guard, "loan not found".
  'GET /api/wallet/statement.pdf': { guard: 'loan.viewOwn' },
  // Paying (issue #32): the QR Ph code of a channel (the default channels are examples: no code), and the
  // receipts of the owner's payment and payout (the fixture payout is not paid yet: past the guard, not found).
  'GET /api/wallet/payment-qr/:channel': {
    guard: 'loan.viewOwn',
    path: () => '/api/wallet/payment-qr/gcash',
  },
  'GET /api/wallet/payments/:id/receipt': {
    guard: 'loan.viewOwn',
    ownObject: true,
    path: (f) => `/api/wallet/payments/${f.repaymentId}/receipt`,
  },
  'GET /api/wallet/payments/:id/receipt.pdf': {
    guard: 'loan.viewOwn',
    ownObject: true,
    path: (f) => `/api/wallet/payments/${f.repaymentId}/receipt.pdf`,
  },
  'GET /api/wallet/payouts/:id/receipt': {
    guard: 'loan.viewOwn',
    ownObject: true,
    path: (f) => `/api/wallet/payouts/${f.disbursementId}/receipt`,
  },
  'GET /api/wallet/payouts/:id/receipt.pdf': {
    guard: 'loan.viewOwn',
    ownObject: true,
    path: (f) => `/api/wallet/payouts/${f.disbursementId}/receipt.pdf`,
  },
  'GET /api/staff/repayments/:id/receipt': {
    guard: 'backOffice.view',
    path: (f) => `/api/staff/repayments/${f.repaymentId}/receipt`,
  },
  'GET /api/staff/repayments/:id/receipt.pdf': {
    guard: 'backOffice.view',
    path: (f) => `/api/staff/repayments/${f.repaymentId}/receipt.pdf`,
  },
  'GET /api/staff/disbursements/:id/receipt': {
    guard: 'backOffice.view',
    path: (f) => `/api/staff/disbursements/${f.disbursementId}/receipt`,
  },
  'GET /api/staff/disbursements/:id/receipt.pdf': {
    guard: 'backOffice.view',
    path: (f) => `/api/staff/disbursements/${f.disbursementId}/receipt.pdf`,
  },
  'POST /api/wallet/withdrawal-preview': { guard: 'wallet.withdraw', body: () => ({ amount: 1000 }) },
  'POST /api/wallet/withdrawal-code': { guard: 'wallet.withdraw', body: () => ({ amount: 1000 }) },
  'POST /api/wallet/withdrawals': {
    guard: 'wallet.withdraw',
    body: () => ({
      amount: 1000,
      code: '123456',
      idempotencyKey: `matrix-${Math.random().toString(36).slice(2)}`,
    }),
  },
  'GET /api/staff/disbursements': { guard: 'backOffice.view' },
  'POST /api/staff/disbursements/:id/paid': {
    guard: 'disbursement.decide',
    path: (f) => `/api/staff/disbursements/${f.disbursementId}/paid`,
    body: () => ({ reference: 'REF-1' }),
  },
  'POST /api/staff/disbursements/:id/destination': {
    guard: 'disbursement.revealDestination',
    path: (f) => `/api/staff/disbursements/${f.disbursementId}/destination`,
  },
  'GET /api/staff/loans/:id/statement.pdf': {
    guard: 'backOffice.view',
    path: (f) => `/api/staff/loans/${f.loanId}/statement.pdf`,
  },
  'GET /api/staff/loans/:id/ledger': {
    guard: 'backOffice.view',
    path: (f) => `/api/staff/loans/${f.loanId}/ledger`,
  },
  'POST /api/staff/loans/:id/repayments': {
    guard: 'repayment.record',
    path: (f) => `/api/staff/loans/${f.loanId}/repayments`,
    body: () => ({ amount: '100', receivedOn: '2026-01-01', channel: 'cash', reference: 'matrix' }),
  },
  'GET /api/staff/repayments': { guard: 'backOffice.view' },
  'GET /api/staff/unapplied-payments': { guard: 'unappliedPayment.view' },
  'POST /api/staff/unapplied-payments/:id/apply': {
    guard: 'unappliedPayment.resolve',
    path: (f) => `/api/staff/unapplied-payments/${f.unappliedId}/apply`,
    body: (f) => ({ loan: f.pendingId }),
  },
  'POST /api/staff/unapplied-payments/:id/return': {
    guard: 'unappliedPayment.resolve',
    path: (f) => `/api/staff/unapplied-payments/${f.unappliedId}/return`,
    body: () => ({ reason: ' ' }),
  },
  // Signed by the payment provider, not a session (an unsigned call is refused by the signature check).
  'POST /api/payments/webhook': {
    guard: 'public',
    body: () => ({ reference: 'matrix', paymentReference: 'HL-0', amountMinor: 1, currency: 'PHP' }),
  },
  'POST /api/staff/repayments/:id/reverse': {
    guard: 'repayment.reverse',
    path: (f) => `/api/staff/repayments/${f.repaymentId}/reverse`,
    body: () => ({ reason }),
  },
  // Nothing is held on the fixture loan: an allowed caller gets REFUND_EXCEEDS_CREDIT, nothing changes.
  'POST /api/staff/loans/:id/refunds': {
    guard: 'credit.refund',
    path: (f) => `/api/staff/loans/${f.loanId}/refunds`,
    body: () => ({ amount: '1', reference: 'MATRIX-REFUND' }),
  },
  'POST /api/staff/disbursements/:id/failed': {
    guard: 'disbursement.decide',
    path: (f) => `/api/staff/disbursements/${f.disbursementId}/failed`,
    body: () => ({ reason }),
  },
  // Before the loan's reset-password entry below, which signs the owner out.
  'GET /api/complaints': { guard: 'complaint.fileOwn' },
  // An empty form: past the guard, a validation error, nothing filed.
  'POST /api/complaints': { guard: 'complaint.fileOwn', multipart: true },
  // The fixture's picture file does not exist: past the guard, "not found" for its owner too.
  'GET /api/complaints/:id/picture': {
    guard: 'complaint.fileOwn',
    ownObject: true,
    path: (f) => `/api/complaints/${f.complaintId}/picture`,
  },
  'GET /api/staff/complaints': { guard: 'complaint.handle' },
  'GET /api/staff/complaints/assignees': { guard: 'complaint.handle' },
  'GET /api/staff/complaints/:id': {
    guard: 'complaint.handle',
    path: (f) => `/api/staff/complaints/${f.complaintId}`,
  },
  'GET /api/staff/complaints/:id/picture': {
    guard: 'complaint.handle',
    path: (f) => `/api/staff/complaints/${f.complaintId}/picture`,
  },
  // Blank texts and an unknown assignee: past the guard, refused by validation, the complaint unchanged.
  'POST /api/staff/complaints/:id/replies': {
    guard: 'complaint.handle',
    path: (f) => `/api/staff/complaints/${f.complaintId}/replies`,
    body: () => ({ message: ' ' }),
  },
  'POST /api/staff/complaints/:id/assign': {
    guard: 'complaint.handle',
    path: (f) => `/api/staff/complaints/${f.complaintId}/assign`,
    body: () => ({ assigneeId: 'nobody' }),
  },
  'POST /api/staff/complaints/:id/resolve': {
    guard: 'complaint.handle',
    path: (f) => `/api/staff/complaints/${f.complaintId}/resolve`,
    body: () => ({ note: ' ' }),
  },
  'GET /api/account': { guard: 'account.viewOwn' },
  'POST /api/account/avatar': { guard: 'profile.editOwn', body: () => ({ avatar: 2 }) },
  'POST /api/account/language': { guard: 'profile.editOwn', body: () => ({ language: 'fil' }) },
  'GET /api/account/sms-preferences': { guard: 'profile.editOwn' },
  'POST /api/account/sms-preferences': { guard: 'profile.editOwn', body: () => ({ optionalSms: true }) },
  'GET /api/privacy/notice': { guard: 'public' },
  'POST /api/account/consent': {
    guard: 'account.viewOwn',
    body: () => ({ privacyNoticeVersion: DEFAULT_PRIVACY_NOTICE_VERSION }),
  },
  'GET /api/account/consents': { guard: 'account.viewOwn' },
  'GET /api/account/documents': { guard: 'account.viewOwn' },
  'GET /api/account/export.zip': { guard: 'account.viewOwn' },
  // A wrong password: the owner's account stays open for the other routes.
  'POST /api/account/close': { guard: 'account.viewOwn', body: () => ({ password: 'not-the-password' }) },
  'GET /api/staff/account-closures': { guard: 'accountClosures.view' },
  'GET /api/staff/loans': { guard: 'backOffice.view' },
  'POST /api/staff/loans/:id/status': {
    guard: 'loan.changeStatus',
    path: (f) => `/api/staff/loans/${f.loanId}/status`,
    body: () => ({ action: 'hold', message: 'Please call us', reason }),
  },
  'POST /api/staff/loans/:id/bank-details': {
    guard: 'loan.changeBankDetails',
    path: (f) => `/api/staff/loans/${f.loanId}/bank-details`,
    body: () => ({ bankName: 'BPI', accountNumber: '1234567890', reason }),
  },
  'POST /api/staff/loans/:id/credit-score': {
    guard: 'loan.changeCreditScore',
    path: (f) => `/api/staff/loans/${f.loanId}/credit-score`,
    body: () => ({ creditScore: 640, reason }),
  },
  'POST /api/staff/loans/:id/language': {
    guard: 'borrower.changeLanguage',
    path: (f) => `/api/staff/loans/${f.loanId}/language`,
    body: () => ({ language: 'km', reason }),
  },
  'POST /api/staff/loans/:id/message': {
    guard: 'loan.messageBorrower',
    path: (f) => `/api/staff/loans/${f.loanId}/message`,
    body: () => ({ message: 'Hello', reason }),
  },
  'POST /api/staff/loans/:id/amount': {
    guard: 'loan.changeAmount',
    path: (f) => `/api/staff/loans/${f.loanId}/amount`,
    body: () => ({ amount: 120000, reason }),
  },
  'POST /api/staff/loans/:id/reset-password': {
    guard: 'users.manage',
    path: (f) => `/api/staff/loans/${f.loanId}/reset-password`,
    body: () => ({ reason }),
  },
  'GET /api/admin/users': { guard: 'users.manage' },
  'POST /api/admin/users': {
    guard: 'users.manage',
    body: () => ({
      username: `m${Math.random().toString(36).slice(2, 10)}`,
      password: 'tamaraw herd 9',
      phone: '09170001111',
      role: 'officer',
    }),
  },
  'POST /api/admin/users/:id': {
    guard: 'users.manage',
    path: (f) => `/api/admin/users/${f.managedUserId}`,
    body: () => ({ phone: '09170002222', password: 'sampaguita 12' }),
  },
  'POST /api/admin/users/:id/reset-password': {
    guard: 'users.manage',
    path: (f) => `/api/admin/users/${f.managedUserId}/reset-password`,
    body: () => ({ reason }),
  },
  // The managed user is active, so an admin gets USER_ALREADY_ACTIVE: past the guard, and nothing changes.
  'POST /api/admin/users/:id/reactivate': {
    guard: 'users.manage',
    path: (f) => `/api/admin/users/${f.managedUserId}/reactivate`,
    body: () => ({ reason }),
  },
  'POST /api/admin/users/:id/unlock': {
    guard: 'users.manage',
    path: (f) => `/api/admin/users/${f.managedUserId}/unlock`,
  },
  'DELETE /api/admin/users/:id': {
    guard: 'users.manage',
    path: (f) => `/api/admin/users/${f.managedUserId}`,
  },
  'POST /api/admin/users/:id/reset-second-factor': {
    guard: 'users.manage',
    path: (f) => `/api/admin/users/${f.managedUserId}/reset-second-factor`,
    body: () => ({ reason }),
  },
  // Loan products (docs/decisions/034): offered to borrowers; read by staff; changed by admins. The bodies
  // change nothing (invalid terms, an outdated version).
  'GET /api/staff/products': { guard: 'product.view' },
  'GET /api/staff/products/:id': { guard: 'product.view', path: (f) => `/api/staff/products/${f.productId}` },
  'POST /api/staff/products': { guard: 'product.manage', body: () => ({ code: 'matrix', terms: {} }) },
  'POST /api/staff/products/:id/versions': {
    guard: 'product.manage',
    path: (f) => `/api/staff/products/${f.productId}/versions`,
    body: () => ({ basedOnVersion: 1, terms: {} }),
  },
  'POST /api/staff/products/:id/retire': {
    guard: 'product.manage',
    path: (f) => `/api/staff/products/${f.productId}/retire`,
    body: () => ({ basedOnVersion: 99, reason }),
  },
  'POST /api/staff/products/:id/reactivate': {
    guard: 'product.manage',
    path: (f) => `/api/staff/products/${f.productId}/reactivate`,
    body: () => ({ basedOnVersion: 99, reason }),
  },
  'GET /api/admin/audit': { guard: 'audit.view' },
  'GET /api/admin/audit.csv': { guard: 'audit.view' },
};

let t: TestApp;
let fixture: Fixture;
const agents = {} as Record<Actor, Agent>;
const credentials = {} as Record<Actor, { identifier: string; password: string }>;
let roleOf: Record<Actor, Role | null>;
let upload: { payload: Buffer; contentType: string };

beforeAll(async () => {
  t = await createTestApp({
    config: { paymentsWebhook: { secret: 'matrix-webhook-secret-0123456789-abcdefghij', channel: 'gcash' } },
  });
  const owner = await t.signUpBorrower();
  const other = await t.signUpBorrower();
  agents.anonymous = t.agent();
  credentials.owner = { identifier: owner.phone, password: owner.password };
  credentials.otherBorrower = { identifier: other.phone, password: other.password };
  for (const role of staffRoles) {
    const { user, password } = await t.createUser({ role });
    credentials[role] = { identifier: user.username!, password };
  }
  for (const [actor, { identifier, password }] of Object.entries(credentials)) {
    agents[actor as Actor] = await t.loginAs(identifier, password);
  }
  roleOf = {
    anonymous: null,
    owner: 'borrower',
    otherBorrower: 'borrower',
    officer: 'officer',
    finance: 'finance',
    admin: 'admin',
  };

  fixture = {
    ...(await seedRouteFixtures(t, { id: owner.user.id, phone: owner.phone })),
    ownerPhone: owner.phone,
  };
  const [front, sig] = await Promise.all([jpegWithGps(200, 150), signaturePng()]);
  upload = multipartBody(
    { amount: '100000', termMonths: '6', disclosureSha256: '0'.repeat(64) },
    ['idFront', 'idBack', 'selfie']
      .map((name) => ({ name, filename: `${name}.jpg`, contentType: 'image/jpeg', data: front }))
      .concat([{ name: 'signature', filename: 's.png', contentType: 'image/png', data: sig }]),
  );
});
afterAll(() => t.close());

function call(actor: Actor, method: string, url: string, entry: Entry): Promise<ApiResponse> {
  const agent = agents[actor];
  const path = entry.path?.(fixture) ?? url;
  if (entry.multipart) {
    return agent.request(method, path, {
      raw: upload.payload,
      headers: { 'content-type': upload.contentType },
    });
  }
  return agent.request(method, path, entry.body ? { body: entry.body(fixture) } : {});
}

function expectedAllowed(entry: Entry, actor: Actor): boolean {
  if (entry.guard === 'public') return true;
  const role = roleOf[actor];
  if (!role || !allowedRoles(entry).includes(role)) return false;
  return !(entry.ownObject && actor === 'otherBorrower');
}

describe('authorization matrix', () => {
  it('has an entry for every API route, and no entry for a route that does not exist', () => {
    const routes = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`);
    expect(routes.filter((r) => !(r in matrix))).toEqual([]);
    expect(Object.keys(matrix).filter((k) => !routes.includes(k))).toEqual([]);
  });

  it('allows exactly the expected callers on every route', async () => {
    const unexpected: string[] = [];
    for (const [key, entry] of Object.entries(matrix)) {
      const [method, url] = key.split(' ') as [string, string];
      const callers = entry.guard === 'public' ? (['anonymous'] as Actor[]) : actors;
      for (const actor of callers) {
        const allowed = expectedAllowed(entry, actor);
        if (entry.streaming && allowed) continue;
        const response = await call(actor, method, url, entry);
        if (entry.endsSessions && actor !== 'anonymous') {
          const { identifier, password } = credentials[actor];
          agents[actor] = await t.loginAs(identifier, password);
        }
        const code = response.body?.error?.code;
        // A refusal by the guard, or (for another borrower's object) a "not found" that hides it exists.
        const refused =
          code === 'UNAUTHENTICATED' ||
          code === 'FORBIDDEN' ||
          (actor === 'otherBorrower' && entry.ownObject === true && code === 'NOT_FOUND');
        if (response.status >= 500)
          unexpected.push(`${key} as ${actor}: ${response.status} ${response.text}`);
        else if (allowed && refused) unexpected.push(`${key} as ${actor}: refused with ${response.status}`);
        else if (!allowed && !refused) unexpected.push(`${key} as ${actor}: ALLOWED with ${response.status}`);
        if (!allowed && actor === 'anonymous') expect(response.status, key).toBe(401);
      }
    }
    expect(unexpected).toEqual([]);
  });
});
