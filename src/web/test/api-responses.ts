import type { z } from 'zod';
import type { LoanStatus } from '../../domain/loan/status';
import type { AccountClosurePage } from '../../domain/schemas/account-closures';
import type { MyApplicationDto, MyApplicationResponse } from '../../domain/schemas/application';
import type {
  ComplaintAssignee,
  ComplaintListItem,
  MyComplaintDto,
  MyComplaintsResponse,
  StaffComplaintDto,
} from '../../domain/schemas/complaints';
import type { repaymentsPage, UnappliedStatus, unappliedPaymentItem } from '../../domain/schemas/payments';
import type { OverduePage, PortfolioSummary } from '../../domain/schemas/portfolio';
import type {
  CloseAccountResponse,
  ConsentList,
  MyDocumentList,
  PrivacyNoticeResponse,
} from '../../domain/schemas/privacy';
import type { LoanLedgerDto } from '../../domain/schemas/repayments';
import type {
  RecoveryCodesResponse,
  SecurityResponse,
  TotpSetupResponse,
} from '../../domain/schemas/second-factor';
import type { PublicSettings } from '../../domain/schemas/settings';
import type {
  ApplicationListItem,
  ApplicationProfile,
  AuditEventDto,
  DashboardSummary,
  deleteUserResponse,
  passwordResetCodeSentResponse,
  ServicingItem,
  staffUserDto,
  temporaryPasswordResponse,
} from '../../domain/schemas/staff';
import type { MyTermsResponse } from '../../domain/schemas/terms';
import type { MeResponse, SmsPreferences } from '../../domain/schemas/user';
import type {
  AccountResponse,
  DisbursementDestination,
  DisbursementDto,
  StaffDisbursementItem,
  WalletResponse,
  WithdrawalPreviewResponse,
} from '../../domain/schemas/wallet';
import type { Page } from '../components/lists/use-list';

/** Every error the API answers: `{ error: { code, message, fields, params? } }`. */
export interface ErrorBody {
  error: { code: string; message: string; fields: object; params?: object };
}

type StaffUser = z.infer<typeof staffUserDto>;
type TemporaryPassword = z.infer<typeof temporaryPasswordResponse>;
type UnappliedResolution = {
  id: string;
  status: UnappliedStatus;
  repaymentId: string | null;
  loanStatus: LoanStatus | null;
  loanNumber: string | null;
};
type RepaymentOutcome = { id: string; loanStatus: LoanStatus };
type CodeSent = { resendAfterSeconds: number; expiresInSeconds: number };

/**
 * What each request answers, as the domain's own (zod-inferred) DTO types, keyed by the server's route
 * pattern (`:id` for a path parameter): a fetch stub's fixture that drifts from the API no longer compiles.
 * Fixed paths can be stubbed by their literal key; a path with parameters or a query string goes through
 * `stub()` in render.tsx, which checks it against the same table.
 */
export interface ApiResponses {
  'GET /api/me': MeResponse;
  'GET /api/settings': PublicSettings;
  'POST /api/auth/login': MeResponse;
  'POST /api/auth/password': MeResponse;
  'POST /api/auth/logout': { ok: true };
  'POST /api/auth/logout-everywhere': { ok: true };
  'POST /api/auth/second-factor': MeResponse;
  'POST /api/auth/second-factor/passkey/options': Record<string, unknown>;
  'POST /api/auth/second-factor/passkey': MeResponse;
  'GET /api/account/security': SecurityResponse;
  'POST /api/account/security/totp/setup': TotpSetupResponse;
  'POST /api/account/security/totp/confirm': RecoveryCodesResponse;
  'POST /api/account/security/passkeys/options': Record<string, unknown>;
  'POST /api/account/security/passkeys': { ok: true };
  'DELETE /api/account/security/passkeys/:id': { ok: true };
  'POST /api/admin/users/:id/reset-second-factor': { ok: true };
  'POST /api/auth/signup/code': CodeSent;
  'POST /api/auth/signup': MeResponse;
  'POST /api/auth/password-reset/code': CodeSent;
  'POST /api/auth/password-reset': { ok: true };
  'POST /api/account/avatar': MeResponse;
  'GET /api/privacy/notice': PrivacyNoticeResponse;
  'POST /api/account/consent': MeResponse;
  'GET /api/account/consents': ConsentList;
  'GET /api/account/documents': MyDocumentList;
  'GET /api/account/sms-preferences': SmsPreferences;
  'POST /api/account/sms-preferences': SmsPreferences;
  'POST /api/account/close': CloseAccountResponse;
  'GET /api/staff/account-closures': AccountClosurePage;
  'GET /api/account': AccountResponse;
  'GET /api/applications/mine': MyApplicationResponse;
  'POST /api/applications': MyApplicationDto;
  'POST /api/applications/quote': { disclosure: Record<string, unknown>; disclosureSha256: string };
  'POST /api/wallet/withdrawal-preview': WithdrawalPreviewResponse;
  'GET /api/wallet': WalletResponse;
  'POST /api/wallet/withdrawal-code': CodeSent;
  'POST /api/wallet/withdrawals': { disbursement: DisbursementDto; replayed: boolean };
  'GET /api/wallet/terms': MyTermsResponse;
  'POST /api/wallet/terms-changes/:id/code': CodeSent;
  'POST /api/wallet/terms-changes/:id/accept': { ok: true };
  'POST /api/wallet/terms-changes/:id/decline': { ok: true };
  'POST /api/staff/applications/:id/confirm-approval': ApplicationProfile;
  'POST /api/staff/applications/:id/terms-change/withdraw': ApplicationProfile;
  'GET /api/staff/pending-count': { count: number };
  'GET /api/staff/dashboard': DashboardSummary;
  'GET /api/staff/applications/pending': Page<ApplicationListItem>;
  'GET /api/staff/applications/approved': Page<ApplicationListItem>;
  'GET /api/staff/applications/:id': ApplicationProfile;
  'POST /api/staff/applications/:id/approve': ApplicationProfile;
  'POST /api/staff/applications/:id/reject': ApplicationProfile;
  'POST /api/staff/applications/pending/:id/terms': ApplicationProfile;
  'POST /api/staff/applications/approved/:id/terms': ApplicationProfile;
  'GET /api/staff/loans': Page<ServicingItem>;
  'POST /api/staff/loans/:id/status': ApplicationProfile;
  'POST /api/staff/loans/:id/bank-details': ApplicationProfile;
  'POST /api/staff/loans/:id/credit-score': ApplicationProfile;
  'POST /api/staff/loans/:id/amount': ApplicationProfile;
  'POST /api/staff/loans/:id/message': ApplicationProfile;
  'POST /api/staff/loans/:id/language': ApplicationProfile;
  'POST /api/staff/loans/:id/reset-password': z.infer<typeof passwordResetCodeSentResponse>;
  'GET /api/staff/disbursements': Page<StaffDisbursementItem>;
  'POST /api/staff/disbursements/:id/paid': DisbursementDto;
  'POST /api/staff/disbursements/:id/failed': DisbursementDto;
  'POST /api/staff/disbursements/:id/destination': DisbursementDestination;
  'GET /api/admin/users': Page<StaffUser>;
  'POST /api/admin/users': StaffUser;
  'POST /api/admin/users/:id': StaffUser;
  'DELETE /api/admin/users/:id': z.infer<typeof deleteUserResponse>;
  'POST /api/admin/users/:id/reset-password': TemporaryPassword;
  'POST /api/admin/users/:id/reactivate': TemporaryPassword;
  'POST /api/admin/users/:id/unlock': StaffUser;
  'GET /api/staff/repayments': z.infer<typeof repaymentsPage>;
  'GET /api/staff/loans/:id/ledger': LoanLedgerDto;
  'POST /api/staff/loans/:id/repayments': RepaymentOutcome;
  'POST /api/staff/loans/:id/refunds': { id: string; creditMinor: number };
  'POST /api/staff/repayments/:id/reverse': RepaymentOutcome;
  'GET /api/admin/audit': Page<AuditEventDto>;
  'GET /api/staff/dashboard/portfolio': PortfolioSummary;
  'GET /api/staff/overdue': OverduePage;
  'GET /api/staff/unapplied-payments': Page<z.infer<typeof unappliedPaymentItem>>;
  'POST /api/staff/unapplied-payments/:id/apply': UnappliedResolution;
  'POST /api/staff/unapplied-payments/:id/return': UnappliedResolution;
  'GET /api/complaints': MyComplaintsResponse;
  'POST /api/complaints': MyComplaintDto;
  'GET /api/staff/complaints': Page<ComplaintListItem>;
  'GET /api/staff/complaints/assignees': { assignees: ComplaintAssignee[] };
  'GET /api/staff/complaints/:id': StaffComplaintDto;
  'POST /api/staff/complaints/:id/replies': StaffComplaintDto;
  'POST /api/staff/complaints/:id/assign': StaffComplaintDto;
  'POST /api/staff/complaints/:id/resolve': StaffComplaintDto;
}
