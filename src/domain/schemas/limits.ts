/**
 * Length and range limits of staff and account inputs, in one place: the API schemas enforce them and the
 * forms use them (maxLength, number bounds), so a form never lets through what the server refuses.
 */
export const limits = {
  reason: 500,
  holdMessage: 300,
  borrowerMessage: 1000,
  bankName: 80,
  accountNumber: 34,
  payoutReference: 100,
  repaymentReference: 100,
  username: 32,
  password: 128,
  /** A mobile number as people write it ("+63 (917) 123-4567"); the server keeps its one form. */
  phone: 24,
  creditScore: { min: 0, max: 1000, default: 500 },
  searchName: 100,
  complaintText: 4000,
  complaintReply: 2000,
} as const;
