import type { BorrowerEventKind } from '../../../../domain/borrower-events';
import type { MyApplicationDto } from '../../../../domain/schemas/application';
import type {
  BorrowerEventDto,
  DisbursementDto,
  PaymentPlanFiguresDto,
  WalletResponse,
  WithdrawalPreviewResponse,
} from '../../../../domain/schemas/wallet';
import { overduePosition } from '../../../test/loan-position';

export function makeApplication(overrides: Partial<MyApplicationDto> = {}): MyApplicationDto {
  return {
    id: '10000000-0000-4000-8000-000000000001',
    loanNumber: 'HL-25-000042',
    status: 'approved',
    statusMessage: null,
    rejectReason: null,
    fullName: 'Maria Santos',
    phone: '09171234567',
    amountMinor: 10_000_000,
    approvedAmountMinor: 10_000_000,
    termMonths: 6,
    monthlyRateBp: 200,
    monthlyPaymentMinor: 1_785_258,
    creditScore: 500,
    bankName: 'GCash',
    accountNumberLast4: '9876',
    submittedAt: '2025-03-01T02:00:00.000Z',
    decidedAt: '2025-03-02T02:00:00.000Z',
    disclosure: {},
    disclosureSha256: 'a'.repeat(64),
    ...overrides,
  };
}

export function makeDisbursement(overrides: Partial<DisbursementDto> = {}): DisbursementDto {
  return {
    id: '20000000-0000-4000-8000-000000000001',
    amountMinor: 500_000,
    feeMinor: 0,
    netMinor: 500_000,
    status: 'requested',
    bankName: 'GCash',
    accountNumberLast4: '9876',
    requestedAt: '2025-03-03T01:00:00.000Z',
    decidedAt: null,
    reference: null,
    failureReason: null,
    ...overrides,
  };
}

let eventId = 0;
export function makeEvent(
  kind: BorrowerEventKind,
  overrides: Partial<BorrowerEventDto> = {},
): BorrowerEventDto {
  eventId += 1;
  return { id: eventId, kind, message: null, data: {}, createdAt: '2025-03-02T02:00:00.000Z', ...overrides };
}

const schedule: WalletResponse['schedule'] = [
  {
    number: 1,
    dueDate: '2025-04-02',
    paymentMinor: 1_785_258,
    principalMinor: 1_585_258,
    interestMinor: 200_000,
    balanceMinor: 8_414_742,
  },
  {
    number: 2,
    dueDate: '2025-05-02',
    paymentMinor: 1_785_258,
    principalMinor: 1_616_963,
    interestMinor: 168_295,
    balanceMinor: 6_797_779,
  },
];

/** An approved ₱100,000 loan with nothing withdrawn yet. */
export function approvedWallet(overrides: Partial<WalletResponse> = {}): WalletResponse {
  return {
    application: makeApplication(),
    canApply: false,
    balance: { approvedMinor: 10_000_000, withdrawnMinor: 0, availableMinor: 10_000_000 },
    inProcessing: false,
    disbursements: [],
    history: [],
    schedule,
    repayment: null,
    ...overrides,
  };
}

export function emptyWallet(overrides: Partial<WalletResponse> = {}): WalletResponse {
  return {
    application: null,
    canApply: true,
    balance: null,
    inProcessing: false,
    disbursements: [],
    history: [],
    schedule: [],
    repayment: null,
    ...overrides,
  };
}

/** The empty wallet with an application waiting for a decision (no new application meanwhile). */
export function pendingWallet(overrides: Partial<WalletResponse> = {}): WalletResponse {
  return emptyWallet({
    application: makeApplication({
      status: 'pending',
      approvedAmountMinor: null,
      creditScore: null,
      decidedAt: null,
    }),
    canApply: false,
    ...overrides,
  });
}

/** Paid out ₱100,000 on 2025-03-02 over 2 months: the first payment 10 days overdue, the next upcoming. */
export function paidOutWallet(
  overrides: Partial<NonNullable<WalletResponse['repayment']>> = {},
): WalletResponse {
  const rows = overduePosition.schedule;
  return approvedWallet({
    schedule: rows.map(({ number, dueDate, paymentMinor, principalMinor, interestMinor, balanceMinor }) => ({
      number,
      dueDate,
      paymentMinor,
      principalMinor,
      interestMinor,
      balanceMinor,
    })),
    repayment: {
      position: overduePosition,
      repayments: [
        {
          id: '30000000-0000-4000-8000-000000000001',
          amountMinor: 1_000_000,
          receivedOn: '2025-03-20',
          channel: 'gcash',
          reference: 'GC-1',
          reversed: false,
          allocation: null,
          reversal: null,
        },
      ],
      paymentReference: 'HL-25-000042',
      paymentChannels: [],
      closedAt: null,
      paidInFullOn: null,
      refunds: [],
      ...overrides,
    },
  });
}

export function makePlanFigures(overrides: Partial<PaymentPlanFiguresDto> = {}): PaymentPlanFiguresDto {
  return {
    monthlyPaymentMinor: 89_263,
    fromInstalment: 1,
    fromDueDate: '2025-04-03',
    totalRepayableMinor: 535_578,
    totalInterestMinor: 35_578,
    remainingToRepayMinor: 535_578,
    totalCostMinor: 35_578,
    effectiveAnnualRate: '0.268242',
    ...overrides,
  };
}

/** The first withdrawal of ₱5,000 over 6 months at 2 % (unless told otherwise), paid out on 3 March 2025. */
export function makePreview(overrides: Partial<WithdrawalPreviewResponse> = {}): WithdrawalPreviewResponse {
  return {
    amountMinor: 500_000,
    feeMinor: 0,
    netMinor: 500_000,
    payoutOn: '2025-03-03',
    termMonths: 6,
    inProcessingMinor: 0,
    before: null,
    after: makePlanFigures(),
    planDigest: 'digest-for-5000',
    ...overrides,
  };
}
