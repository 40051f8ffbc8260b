import type { Role } from '../../../../domain/roles';

/** The Loan Servicing actions, in the order the Action menu lists them (SPEC §2.7). */
export const servicingActions = [
  'profile',
  'status',
  'bankDetails',
  'creditScore',
  'resetPassword',
  'amount',
  'message',
] as const;
export type ServicingAction = (typeof servicingActions)[number];

/**
 * Who may do what (SPEC §1): officers and admins hold / release, set the credit score, change the amount
 * and message the borrower; finance and admins change bank details; only admins reset a borrower's
 * password; every staff member can view the profile. The server enforces the same; the menu only hides
 * what would be refused.
 */
const allowed: Record<ServicingAction, readonly Role[]> = {
  profile: ['officer', 'finance', 'admin'],
  status: ['officer', 'admin'],
  bankDetails: ['finance', 'admin'],
  creditScore: ['officer', 'admin'],
  resetPassword: ['admin'],
  amount: ['officer', 'admin'],
  message: ['officer', 'admin'],
};

export function servicingActionsFor(role: Role): ServicingAction[] {
  return servicingActions.filter((action) => allowed[action].includes(role));
}
