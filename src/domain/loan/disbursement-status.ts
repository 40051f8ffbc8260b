/**
 * A payout's statuses (SPEC §3): requested (on its way to the borrower), paid, failed. Its own zod-free module
 * so the back office's filter and the server's schemas read the one list (status-machines.ts says who moves
 * a payout between them).
 */
export const disbursementStatuses = ['requested', 'paid', 'failed'] as const;
export type DisbursementStatus = (typeof disbursementStatuses)[number];
