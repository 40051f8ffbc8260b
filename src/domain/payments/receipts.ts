/**
 * Receipt numbers (docs/decisions/037): the loan number, R for money received or D for a payout
 * (disbursement), and the first 8 hex digits of the record's id. Stable by construction: the records are
 * never changed or deleted, and nothing about later records moves them (a running count would, when two
 * payments recorded at once commit out of order). Within one loan a clash is a 1-in-4-billion chance.
 */
export function receiptNumber(kind: 'payment' | 'payout', loanNumber: string, recordId: string): string {
  const hex = recordId.replaceAll('-', '').slice(0, 8).toUpperCase();
  if (!/^[0-9A-F]{8}$/.test(hex)) throw new Error(`not a record id: ${recordId}`);
  return `${loanNumber}-${kind === 'payment' ? 'R' : 'D'}${hex}`;
}
