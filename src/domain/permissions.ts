import type { Role } from './roles';

/**
 * Who may do what (SPEC §1), in one table. The server guards every route with `requirePermission(action)`,
 * the web asks `can(role, action)` before showing navigation and buttons, and the authorization-matrix test
 * derives its expectations from this same table. Ownership (a borrower's own records) is checked by each
 * use case on top of the role.
 */
export const permissions = {
  // Borrower self-service: apply, see own application/loan/documents, withdraw, account.
  'application.apply': ['borrower'],
  'loan.viewOwn': ['borrower'],
  'wallet.withdraw': ['borrower'],
  'account.viewOwn': ['borrower'],
  // Anyone signed in: own avatar and password.
  'profile.editOwn': ['borrower', 'officer', 'finance', 'admin'],
  // Staff: dashboard, lists, any application, loan, borrower profile and documents.
  'backOffice.view': ['officer', 'finance', 'admin'],
  // Officers and admins: terms of pending applications, decisions, holds, credit score, amount, messages.
  'application.editTerms': ['officer', 'admin'],
  'application.decide': ['officer', 'admin'],
  'loan.changeStatus': ['officer', 'admin'],
  'loan.changeCreditScore': ['officer', 'admin'],
  'loan.changeAmount': ['officer', 'admin'],
  'loan.messageBorrower': ['officer', 'admin'],
  // The language a borrower asked to be sent everything in (issue #36), set by the staff who talk to them.
  'borrower.changeLanguage': ['officer', 'admin'],
  // Finance and admins: payouts and the borrower's payout account.
  'disbursement.decide': ['finance', 'admin'],
  // The full payout account of a disbursement, to send the transfer (SPEC §8; each reveal is audited).
  'disbursement.revealDestination': ['finance', 'admin'],
  'loan.changeBankDetails': ['finance', 'admin'],
  // Money coming back: record a repayment received, and reverse one recorded by mistake (with a reason).
  'repayment.record': ['finance', 'admin'],
  'repayment.reverse': ['finance', 'admin'],
  // Money received above the payoff is held for the borrower; finance sends it back (issue #31).
  'credit.refund': ['finance', 'admin'],
  // Payments the provider reported that did not match a loan (or over-paid): see them, and resolve each by
  // applying it to a loan or recording that the money was sent back.
  'unappliedPayment.view': ['finance', 'admin'],
  'unappliedPayment.resolve': ['finance', 'admin'],
  // Complaints (issue #14, SPEC §8 borrower rights): a borrower files and follows their own; officers and
  // admins work the queue (see it, reply, assign, resolve). Finance does not handle complaints.
  'complaint.fileOwn': ['borrower'],
  'complaint.handle': ['officer', 'admin'],
  // Admins: users (add, update phone, reset password, deactivate/delete) and the audit log.
  'users.manage': ['admin'],
  'audit.view': ['admin'],
  // Borrowers' requests to close their account (issue #14): a read-only list for officers and admins.
  'accountClosures.view': ['officer', 'admin'],
  // Loan products (issue #31, SPEC §9, docs/decisions/034): admins create, edit (a new version), retire and
  // offer again; every staff member may read them, to explain a product's terms to a borrower.
  'product.view': ['officer', 'finance', 'admin'],
  'product.manage': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export const permissionNames = Object.keys(permissions) as Permission[];

export function rolesFor(action: Permission): readonly Role[] {
  return permissions[action];
}

export function can(role: Role | null | undefined, action: Permission): boolean {
  // Stryker disable next-line ConditionalExpression: no role list holds null or undefined, so includes() already says no
  return role != null && (permissions[action] as readonly Role[]).includes(role);
}
