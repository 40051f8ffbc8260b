import type { DisbursementStatus } from './loan/disbursement-status';
import type { UserStatus } from './roles';
import type { ComplaintStatus } from './schemas/complaints';
import type { TermsChangeStatus } from './schemas/terms';
import { statusMachine } from './status-machine';

/** A payout: finance marks a requested one paid or failed, once (SPEC §4). */
export const disbursementMachine = statusMachine<DisbursementStatus, 'mark_paid' | 'mark_failed'>(
  {
    mark_paid: { from: ['requested'], to: 'paid', by: 'staff' },
    mark_failed: { from: ['requested'], to: 'failed', by: 'staff' },
  },
  'DISBURSEMENT_ALREADY_DECIDED',
);

/**
 * New terms staff proposed (docs/decisions/018): the borrower accepts or declines them, or staff withdraw
 * them, while they are proposed. A change applied at once (a reduction the borrower asked for) is written
 * as applied; nothing moves into that status.
 */
export const termsChangeMachine = statusMachine<TermsChangeStatus, 'accept' | 'decline' | 'withdraw'>(
  {
    accept: { from: ['proposed'], to: 'accepted', by: 'borrower' },
    decline: { from: ['proposed'], to: 'declined', by: 'borrower' },
    withdraw: { from: ['proposed'], to: 'withdrawn', by: 'staff' },
  },
  'TERMS_CHANGE_NOT_OPEN',
);

/** A complaint (issue #14): a reply or an assignment puts a received one in progress; resolving ends it. */
export const complaintMachine = statusMachine<ComplaintStatus, 'reply' | 'assign' | 'resolve'>(
  {
    reply: { from: ['received', 'in_progress'], to: 'in_progress', by: 'staff' },
    assign: { from: ['received', 'in_progress'], to: 'in_progress', by: 'staff' },
    resolve: { from: ['received', 'in_progress'], to: 'resolved', by: 'staff' },
  },
  'COMPLAINT_RESOLVED',
);

/**
 * An account (SPEC §8 borrower rights, §2.7 manage users): its owner closes it while active; an admin
 * deactivates it (a user who owns records cannot be deleted; doing it again changes nothing but is allowed,
 * as the admin's "Delete" of such a user always was) and reactivates a deactivated one. Anonymising a closed
 * account's data (jobs/anonymise-closed-accounts) keeps it deactivated: it is not a move.
 */
export const accountMachine = statusMachine<UserStatus, 'close' | 'deactivate' | 'reactivate'>(
  {
    close: { from: ['active'], to: 'deactivated', by: 'borrower' },
    deactivate: { from: ['active', 'deactivated'], to: 'deactivated', by: 'staff' },
    reactivate: { from: ['deactivated'], to: 'active', by: 'staff', refusal: 'USER_ALREADY_ACTIVE' },
  },
  'ACCOUNT_DEACTIVATED',
);
