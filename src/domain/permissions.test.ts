import { describe, expect, it } from 'vitest';
import { can, type Permission, permissionNames, permissions, rolesFor } from './permissions';
import { type Role, roles } from './roles';

/**
 * SPEC §1 "Roles and permissions", copied cell for cell ("yes" / "–", columns borrower, officer, finance,
 * admin), with the permissions of the table in permissions.ts that implement each row. This is the one
 * place the SPEC table is read; the server guards and the authorization-matrix test use permissions.ts.
 */
const spec = `
| apply, see own application/loan/documents, withdraw own balance, edit own avatar/password | yes | – | – | – |
| see any application, loan, borrower profile and documents | – | yes | yes | yes |
| edit terms of a pending application, approve, reject, put loan on hold / release, set credit score, change approved amount/term, message borrower | – | yes | – | yes |
| mark a disbursement paid or failed, change a borrower's bank details | – | – | yes | yes |
| manage users (add, update phone, reset password, deactivate/delete), see audit log | – | – | – | yes |
| dashboard and lists | – | yes | yes | yes |
`;

const implementedBy: Record<string, readonly Permission[]> = {
  'apply, see own application/loan/documents, withdraw own balance, edit own avatar/password': [
    'application.apply',
    'loan.viewOwn',
    'wallet.withdraw',
    'account.viewOwn',
  ],
  'see any application, loan, borrower profile and documents': ['backOffice.view'],
  'edit terms of a pending application, approve, reject, put loan on hold / release, set credit score, change approved amount/term, message borrower':
    [
      'application.editTerms',
      'application.decide',
      'loan.changeStatus',
      'loan.changeCreditScore',
      'loan.changeAmount',
      'loan.messageBorrower',
    ],
  // Revealing the full payout account is part of sending the transfer (SPEC §8: "finance sees the full
  // payout destination (each reveal audited)").
  "mark a disbursement paid or failed, change a borrower's bank details": [
    'disbursement.decide',
    'disbursement.revealDestination',
    'loan.changeBankDetails',
  ],
  'manage users (add, update phone, reset password, deactivate/delete), see audit log': [
    'users.manage',
    'audit.view',
  ],
  'dashboard and lists': ['backOffice.view'],
};

/**
 * Where the rest of the SPEC widens a row, and why. Staff have an avatar picker in the back office (§2.7)
 * and must change a temporary password at their next login (§2.7 users), so "edit own avatar/password"
 * belongs to every signed-in user, not only to borrowers.
 */
const widenedBySpec: Partial<Record<Permission, readonly Role[]>> = {
  'profile.editOwn': ['borrower', 'officer', 'finance', 'admin'],
  // SPEC "After the payout" (issue #10): finance (and admins) record repayments and reverse one with a
  // reason, as they mark payouts paid — money in and money out stay with the same role.
  'repayment.record': ['finance', 'admin'],
  'repayment.reverse': ['finance', 'admin'],
  // SPEC §9 "Money above the payoff is recorded and held for refund": refunded by finance, like payouts.
  'credit.refund': ['finance', 'admin'],
  // Issue #10: "an unmatched or over-paying payment is kept as an unapplied record for finance to resolve".
  'unappliedPayment.view': ['finance', 'admin'],
  'unappliedPayment.resolve': ['finance', 'admin'],
  // Issue #14 "Staff can see such requests" (account closures): the officers and admins who talk to
  // borrowers; read-only, like any list.
  'accountClosures.view': ['officer', 'admin'],
  // SPEC §8 "complaints with reference numbers" (issue #14): the borrower files and follows their own; the
  // queue is worked by officers and admins (the roles that message borrowers), not by finance.
  'complaint.fileOwn': ['borrower'],
  'complaint.handle': ['officer', 'admin'],
  // SPEC §9 "An admin manages products (versioned) in the back office": managing is the admin's; reading
  // them is every staff member's, like any list (docs/decisions/034).
  'product.manage': ['admin'],
  'product.view': ['officer', 'finance', 'admin'],
  // Issue #36 "a stored language per user … editable by staff for a borrower who asks": the officers and
  // admins who message borrowers.
  'borrower.changeLanguage': ['officer', 'admin'],
};

function parseSpecTable(text: string) {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      const [action, ...flags] = cells;
      if (!action || flags.length !== roles.length) throw new Error(`bad SPEC row: ${line}`);
      return { action, roles: roles.filter((_, i) => flags[i] === 'yes') };
    });
}

describe('the permission table', () => {
  const rows = parseSpecTable(spec);

  it.each(rows)('SPEC §1 "$action" is exactly who may do it', ({ action, roles: allowed }) => {
    const implementing = implementedBy[action];
    expect(implementing, `no permissions listed for "${action}"`).toBeDefined();
    for (const permission of implementing!)
      expect([...rolesFor(permission)].sort()).toEqual([...allowed].sort());
  });

  it('every permission comes from a SPEC §1 row or a documented widening', () => {
    const covered = new Set<Permission>([
      ...Object.values(implementedBy).flat(),
      ...(Object.keys(widenedBySpec) as Permission[]),
    ]);
    expect(permissionNames.filter((p) => !covered.has(p))).toEqual([]);
    for (const [permission, allowed] of Object.entries(widenedBySpec)) {
      expect([...rolesFor(permission as Permission)].sort()).toEqual([...allowed!].sort());
    }
  });

  it('can() answers from the table, and nobody signed out can do anything', () => {
    for (const permission of permissionNames) {
      for (const role of roles)
        expect(can(role, permission)).toBe(permissions[permission].includes(role as never));
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
    }
  });
});
