import { can, type Permission } from '../../../../domain/permissions';
import type { Role } from '../../../../domain/roles';

/**
 * The Loan Servicing actions in the order the Action menu lists them (SPEC §2.7), each with the permission
 * (domain table, SPEC §1) that shows it. The server guards the same permissions.
 */
export const servicingActionPermissions = {
  profile: 'backOffice.view',
  status: 'loan.changeStatus',
  bankDetails: 'loan.changeBankDetails',
  creditScore: 'loan.changeCreditScore',
  resetPassword: 'users.manage',
  amount: 'loan.changeAmount',
  message: 'loan.messageBorrower',
  language: 'borrower.changeLanguage',
} as const satisfies Record<string, Permission>;

export type ServicingAction = keyof typeof servicingActionPermissions;

export function servicingActionsFor(role: Role): ServicingAction[] {
  return (Object.keys(servicingActionPermissions) as ServicingAction[]).filter((action) =>
    can(role, servicingActionPermissions[action]),
  );
}
