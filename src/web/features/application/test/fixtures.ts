import type { MyApplicationDto } from '../../../../domain/schemas/application';

/** The borrower's own application as the server answers it, just submitted and waiting for a decision. */
export function pendingApplication(overrides: Partial<MyApplicationDto> = {}): MyApplicationDto {
  return {
    id: 'app-1',
    loanNumber: 'HL-25-000042',
    status: 'pending',
    statusMessage: null,
    rejectReason: null,
    fullName: 'Maria Santos',
    phone: '09171234567',
    amountMinor: 10_000_000,
    approvedAmountMinor: null,
    termMonths: 12,
    monthlyRateBp: 200,
    monthlyPaymentMinor: 945_596,
    creditScore: null,
    bankName: 'GCash',
    accountNumberLast4: '4567',
    submittedAt: '2025-03-01T02:00:00.000Z',
    decidedAt: null,
    disclosure: {},
    disclosureSha256: 'abc',
    ...overrides,
  };
}
