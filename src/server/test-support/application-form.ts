/**
 * The text fields of a complete loan application (POST /api/applications) for the borrower with `phone`:
 * ₱100,000 over 12 months, a sari-sari store owner in Quezon City. Add `disclosureSha256` from the quote.
 */
export function applicationFields(
  phone: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    phone,
    amount: '100000',
    termMonths: '12',
    fullName: 'Maria Santos',
    idNumber: 'N01-23-456789',
    companyName: 'Santos Sari-Sari Store',
    position: 'Owner',
    income: '35000',
    monthlyExpense: '12000',
    address: '12 Mabini St, Quezon City',
    email: 'maria@example.com',
    contactName: 'Jose Santos',
    contactPhone: '09181234567',
    contactAddress: '12 Mabini St, Quezon City',
    contactRelation: 'sibling',
    bankName: 'GCash',
    accountNumber: '09171234567',
    ...overrides,
  };
}
