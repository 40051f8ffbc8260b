/** "•••• 7001": an account number shown by its last four digits only (SPEC §2.7). */
export function maskAccount(accountNumberOrLast4: string): string {
  const digits = accountNumberOrLast4.trim();
  return digits ? `•••• ${digits.slice(-4)}` : '';
}

/** "GCash •••• 7001". */
export function maskedDestination(bankName: string, accountNumberOrLast4: string): string {
  return [bankName.trim(), maskAccount(accountNumberOrLast4)].filter(Boolean).join(' ');
}
