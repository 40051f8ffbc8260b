import type { ColumnType, Generated, Selectable } from 'kysely';
import type { BorrowerEventKind } from '../../domain/borrower-events';
import type { BorrowerMessageKind } from '../../domain/borrower-messages';
import type { CodePurpose } from '../../domain/codes';
import type { Language } from '../../domain/languages';
import type { DisbursementStatus } from '../../domain/loan/disbursement-status';
import type { ProductStatus } from '../../domain/loan/products';
import type { ReminderKind } from '../../domain/loan/reminders';
import type { LoanStatus } from '../../domain/loan/status';
import type { Role, UserStatus } from '../../domain/roles';
import type { ComplaintCategory, ComplaintStatus } from '../../domain/schemas/complaints';
import type { UnappliedReason, UnappliedStatus } from '../../domain/schemas/payments';
import type { TermsChangeStatus } from '../../domain/schemas/terms';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface UsersTable {
  id: Generated<string>;
  username: string | null;
  phone: string | null;
  password_hash: string;
  role: Role;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  must_change_password: ColumnType<boolean, boolean | undefined, boolean>;
  avatar: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  last_login_at: Timestamp | null;
  /** The privacy notice version the user last accepted (migration 015); null: never (staff, old accounts). */
  privacy_notice_version: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the account's personal data was anonymised after closure and the retention period. */
  anonymised_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** What the server writes to this user in (migration 029, issue #36); 'en' unless chosen. */
  language: ColumnType<Language, Language | undefined, Language>;
  /** Still wants the messages a borrower may turn off (migration 030, docs/decisions/041). */
  optional_sms: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
  /** Password given, second factor still owed (migration 013): the session opens nothing else. */
  second_factor_pending: ColumnType<boolean, boolean | undefined, boolean>;
  /** Idle limit of this session in minutes (null: the role's built-in default). */
  idle_minutes: number | null;
  /** The WebAuthn challenge this session was last given (registration or authentication). */
  webauthn_challenge: string | null;
}

/** Staff TOTP (migration 013): the secret encrypted with a key derived from SESSION_SECRET. */
export interface UserTotpTable {
  user_id: string;
  secret_encrypted: string;
  /** Null until a first code confirmed the enrolment. */
  confirmed_at: Timestamp | null;
  /** The last 30-second step accepted: a code of this step or an earlier one is refused (replay). */
  last_used_step: number | null;
  created_at: CreatedAt;
}

export interface UserRecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface UserPasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: ColumnType<number, number | undefined, number>;
  /** Comma-separated transports the authenticator reported. */
  transports: ColumnType<string, string | undefined, string>;
  name: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
}

export interface VerificationCodesTable {
  id: Generated<string>;
  phone: string;
  purpose: CodePurpose;
  code_hash: string;
  /** What the code was issued for (e.g. a withdrawal's amount and destination), hashed into code_hash. */
  context: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  used_at: Timestamp | null;
}

/**
 * Failed-attempt limits (auth/attempt-limits.ts): `account:`, `unknown:`, `address:` and `second-factor:`
 * keys. `failures` counts the streak's attempts that failed or are still being checked.
 */
export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_started_at: Timestamp;
  locked_until: Timestamp | null;
}

/** Abuse ceilings (migration 010): how many times `key` was used in the hour starting at `window_start`. */
export interface RateLimitCountersTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export type DocumentKind = 'id_front' | 'id_back' | 'selfie' | 'signature';

export interface DocumentsTable {
  id: Generated<string>;
  owner_id: string;
  application_id: string;
  kind: DocumentKind;
  content_type: 'image/jpeg' | 'image/png';
  size: number;
  width: number;
  height: number;
  sha256: string;
  storage_key: string;
  created_at: CreatedAt;
  /** When the file was deleted from storage (account anonymised); the row stays for the loan record. */
  erased_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type ConsentContext = 'signup' | 'reconsent';

/** One accepted privacy notice (migration 015): kept as the user's consent history. */
export interface ConsentsTable {
  id: Generated<string>;
  user_id: string;
  notice_version: string;
  context: ConsentContext;
  consented_at: CreatedAt;
  ip: string | null;
  user_agent: string | null;
}

/** A borrower's closed account (migration 015): anonymised on `anonymise_on` ('YYYY-MM-DD') by a job. */
export interface AccountClosuresTable {
  user_id: string;
  requested_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
  anonymise_on: ColumnType<string, string, string>;
  anonymised_at: Timestamp | null;
}

export interface ApplicationsTable {
  id: string;
  loan_number: string;
  borrower_id: string;
  phone: string;
  full_name: string;
  id_number: string;
  amount: number;
  term_months: number;
  monthly_rate_bp: number;
  monthly_payment: number;
  company_name: string;
  position: string;
  income: number;
  monthly_expense: number;
  address: string;
  email: string | null;
  contact_name: string;
  contact_phone: string;
  contact_address: string;
  contact_relation: string;
  bank_name: string;
  account_number: string;
  doc_id_front: string;
  doc_id_back: string;
  doc_selfie: string;
  doc_signature: string;
  disclosure: ColumnType<unknown, string, string>;
  disclosure_sha256: string;
  status: ColumnType<LoanStatus, LoanStatus | undefined, LoanStatus>;
  status_message: string | null;
  credit_score: number | null;
  submitted_at: CreatedAt;
  decided_at: Timestamp | null;
  decided_by: string | null;
  reject_reason: string | null;
  approved_amount: number | null;
  /** When the loan was paid off; null while it runs or after a reversal reopened it. */
  closed_at: Timestamp | null;
  /** Stored loan facts (migration 008, docs/decisions/012): a cache of the position, kept by refreshLoanFacts. */
  outstanding_principal_minor: Generated<number>;
  /** Due date of the oldest instalment not fully paid ('YYYY-MM-DD' as text); past due when < today. */
  next_due_on: ColumnType<string | null, string | null | undefined, string | null>;
  next_due_minor: number | null;
  facts_as_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** [[due date, unpaid minor], …] of every instalment not fully paid, oldest first (JSON text when written). */
  unpaid_instalments: ColumnType<[string, number][], string | undefined, string>;
  /** Principal owed again from `principal_step_on` (migration 024: paid ahead, then needed for interest). */
  principal_step_minor: Generated<number>;
  principal_step_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** The first day the oldest unpaid instalment is overdue: next_due_on + the loan's grace days + 1. */
  overdue_from: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The terms that price the loan, from its signing (migration 024, `LoanTerms`; JSON text when written).
   * Null only for a row signed before the migration until the start-up backfill has run.
   */
  terms: ColumnType<unknown, string | undefined, string>;
  /** Where the borrower signed (migration 014): client address and user agent at submission. */
  signed_ip: ColumnType<string | null, string | null | undefined, string | null>;
  signed_user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  /** Four-eyes (migration 014): the first approval of an amount above the threshold, until confirmed. */
  first_approved_by: ColumnType<string | null, string | null | undefined, string | null>;
  first_approved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  first_approval_credit_score: ColumnType<number | null, number | null | undefined, number | null>;
  /** The product version the loan was signed under (migration 025); null for loans signed before products. */
  product_version_id: ColumnType<string | null, string | null | undefined, never>;
}

/** A loan product (migration 025, docs/decisions/034): its code, for good. Never changed nor deleted. */
export interface ProductsTable {
  id: Generated<string>;
  code: string;
  /** The product written from the settings on an empty database; the fallback for loans without a version. */
  is_default: ColumnType<boolean, boolean | undefined, never>;
  created_at: CreatedAt;
  created_by: ColumnType<string | null, string | null | undefined, never>;
}

/** What one version of a product says (migration 025). Never changed nor deleted: a change is a new version. */
export interface ProductVersionsTable {
  id: Generated<string>;
  product_id: string;
  version: number;
  status: ProductStatus;
  name_en: string;
  name_fil: string;
  name_zh: string;
  name_km: string;
  borrower_min_minor: number;
  borrower_max_minor: number;
  borrower_step_minor: number;
  staff_min_minor: number;
  staff_max_minor: number;
  staff_step_minor: number;
  /** A PostgreSQL integer[]; written as the array literal text (e.g. '{6,12}'). */
  terms_months: ColumnType<number[], string, never>;
  default_term_months: number;
  monthly_rate_bp: number;
  fee_flat_minor: number;
  fee_percent_bp: number;
  fee_collection: 'deducted_from_payout';
  late_charge_monthly_bp: number;
  grace_days: number;
  four_eyes_threshold_minor: number;
  first_loan_max_minor: number;
  repeat_after_loans: number | null;
  repeat_max_days_late: number | null;
  repeat_max_minor: number | null;
  created_at: CreatedAt;
  created_by: ColumnType<string | null, string | null | undefined, never>;
  /** Why it was saved: an edit's note, a retirement's reason; null for version 1. */
  reason: ColumnType<string | null, string | null | undefined, never>;
}

export type { TermsChangeStatus };

/** A change to signed terms (migration 014, docs/decisions/018), with the disclosure it binds. */
export interface TermsChangesTable {
  id: Generated<string>;
  application_id: string;
  stage: 'pending' | 'approved';
  status: ColumnType<TermsChangeStatus, TermsChangeStatus | undefined, TermsChangeStatus>;
  proposed_by: string;
  reason: string | null;
  previous_amount: number;
  previous_term_months: number;
  previous_disclosure: ColumnType<unknown, string, never>;
  amount: number;
  term_months: number;
  monthly_payment: number;
  disclosure: ColumnType<unknown, string, never>;
  disclosure_sha256: string;
  created_at: CreatedAt;
  decided_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  decided_by: string | null;
  decided_ip: string | null;
  decided_user_agent: string | null;
}

/** Loans whose stored facts must be recomputed outside a money event (drained at start-up). */
export interface LoanFactsStaleTable {
  application_id: string;
}

export interface AuditEventsTable {
  id: Generated<number>;
  at: CreatedAt;
  actor_id: string | null;
  actor_username: string | null;
  actor_role: string;
  action: string;
  target_type: string;
  target_id: string;
  loan_id: string | null;
  changes: ColumnType<Record<string, { before: unknown; after: unknown }>, string | undefined, never>;
  reason: string | null;
  ip: string | null;
}

export interface BorrowerEventsTable {
  id: Generated<number>;
  borrower_id: string;
  application_id: string | null;
  kind: BorrowerEventKind;
  message: string | null;
  data: ColumnType<Record<string, unknown>, string | undefined, never>;
  created_at: CreatedAt;
}

export type { DisbursementStatus };

export interface DisbursementsTable {
  id: Generated<string>;
  application_id: string;
  /** The principal paid out (gross): what the borrower owes. */
  amount: number;
  /** The fee deducted from it (migration 026): the borrower is sent amount − fee_minor. */
  fee_minor: ColumnType<number, number | undefined, never>;
  bank_name: string;
  account_number: string;
  status: ColumnType<DisbursementStatus, DisbursementStatus | undefined, DisbursementStatus>;
  requested_at: CreatedAt;
  code_verified: boolean;
  idempotency_key: string | null;
  decided_at: Timestamp | null;
  decided_by: string | null;
  reference: string | null;
  failure_reason: string | null;
}

/** Money held for a borrower (above the payoff) sent back by finance (migration 026); never changed. */
export interface CreditRefundsTable {
  id: Generated<string>;
  application_id: string;
  amount: number;
  /** The transfer's reference. */
  reference: string;
  refunded_by: string;
  created_at: CreatedAt;
}

export type RepaymentSource = 'staff' | 'webhook';

/** Money received for a loan; never updated or deleted (a trigger), undone only by a reversal. */
export interface RepaymentsTable {
  id: Generated<string>;
  application_id: string;
  amount: number;
  /** Civil date the money was received, 'YYYY-MM-DD' in the lender's time zone. */
  received_on: ColumnType<string, string, never>;
  channel: string;
  reference: string;
  source: RepaymentSource;
  recorded_by: string | null;
  created_at: CreatedAt;
}

export interface RepaymentReversalsTable {
  repayment_id: string;
  reason: string;
  reversed_by: string;
  created_at: CreatedAt;
}

/**
 * A provider payment that did not become a repayment by itself (migration 007). Money facts are immutable
 * (a trigger); only the one resolution open → applied | returned may be written.
 */
export interface UnappliedPaymentsTable {
  id: Generated<string>;
  provider: ColumnType<string, string, never>;
  provider_reference: ColumnType<string, string, never>;
  amount: ColumnType<number, number, never>;
  received_at: ColumnType<Date, Date | string, never>;
  /** The payment reference exactly as the payer gave it (the loan number, if they quoted it right). */
  payer_reference: ColumnType<string, string, never>;
  payer_name: ColumnType<string | null, string | null | undefined, never>;
  /** The provider's payload as received (its JSON). */
  payload: ColumnType<unknown, string, never>;
  reason: ColumnType<UnappliedReason, UnappliedReason, never>;
  /** `reference_conflict` only: the amount the earlier delivery of the same provider reference carried. */
  earlier_amount: ColumnType<number | null, number | null | undefined, never>;
  created_at: CreatedAt;
  status: ColumnType<UnappliedStatus, UnappliedStatus | undefined, UnappliedStatus>;
  resolved_by: string | null;
  resolved_at: Timestamp | null;
  resolution_note: string | null;
  applied_repayment_id: string | null;
}

export type ReminderStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'expired';

/**
 * A payment reminder and its outbox entry (migration 009): one a day per loan. `pending` → `sending` (claimed
 * by a sender) → `sent`; `failed` after too many refused attempts; `expired` if its day passed unsent.
 */
export interface LoanRemindersTable {
  id: Generated<string>;
  /** The borrower it is sent to (migration 030). */
  borrower_id: string;
  /** Null only for a message about no loan (a complaint of none). */
  application_id: string | null;
  /** A payment reminder, or the message of a change (migration 030, docs/decisions/041). */
  kind: ReminderKind | BorrowerMessageKind;
  /** 'YYYY-MM-DD': the instalment a reminder is about; null for a message. */
  due_date: ColumnType<string | null, string | null | undefined, never>;
  /** 'YYYY-MM-DD': the lender's civil day it was decided or written on (a reminder is sent only on it). */
  reminder_day: ColumnType<string, string, never>;
  phone: string;
  /** A reminder's amount; null for a message. */
  amount: number | null;
  text: string;
  status: ColumnType<ReminderStatus, ReminderStatus | undefined, ReminderStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  claimed_at: Timestamp | null;
  sent_at: Timestamp | null;
  last_error: string | null;
  created_at: CreatedAt;
}

/** A borrower's complaint (migration 016): reference C-<year>-<number>, received → in_progress → resolved. */
export interface ComplaintsTable {
  id: Generated<string>;
  reference: string;
  borrower_id: string;
  application_id: string | null;
  category: ComplaintCategory;
  text: string;
  picture_key: string | null;
  picture_content_type: 'image/jpeg' | null;
  status: ColumnType<ComplaintStatus, ComplaintStatus | undefined, ComplaintStatus>;
  assigned_to: string | null;
  created_at: CreatedAt;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
  resolution_note: string | null;
}

/** A staff reply to a complaint, shown to the borrower; never edited. */
export interface ComplaintRepliesTable {
  id: Generated<string>;
  complaint_id: string;
  author_id: string;
  message: string;
  created_at: CreatedAt;
}

/**
 * The dashboard's whole-table figures (migration 032), written only by triggers: per (figure, part, shard) a
 * count and an amount sum; a figure's value is the sum over its shards.
 */
export interface DashboardFiguresTable {
  figure: ColumnType<string, never, never>;
  part: ColumnType<string, never, never>;
  shard: ColumnType<number, never, never>;
  /** bigint: read as a string. */
  n: ColumnType<string, never, never>;
  amount: ColumnType<string, never, never>;
}

/**
 * One row per word of the lower-cased name of each application in a searched queue (migration 048): the name
 * from that word on, the queue's order time and the application; kept by triggers, read-only here.
 */
export interface NameStartsTable {
  queue: ColumnType<number, never, never>;
  word: ColumnType<string, never, never>;
  start: ColumnType<string, never, never>;
  prev: ColumnType<string, never, never>;
  at: ColumnType<Date | null, never, never>;
  id: ColumnType<string, never, never>;
}

/** Every word a name start has had (migration 048); kept by triggers, read-only here. */
export interface NameWordsTable {
  word: ColumnType<string, never, never>;
}

/** Each quarter hour's smallest and largest submitted amount, kept by triggers (migration 045); read-only here. */
export interface ApplicationQuartersTable {
  quarter: ColumnType<Date, never, never>;
  low_amount: ColumnType<number, never, never>;
  high_amount: ColumnType<number, never, never>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodesTable;
  user_passkeys: UserPasskeysTable;
  verification_codes: VerificationCodesTable;
  login_throttle: LoginThrottleTable;
  rate_limit_counters: RateLimitCountersTable;
  documents: DocumentsTable;
  applications: ApplicationsTable;
  audit_events: AuditEventsTable;
  borrower_events: BorrowerEventsTable;
  disbursements: DisbursementsTable;
  repayments: RepaymentsTable;
  credit_refunds: CreditRefundsTable;
  repayment_reversals: RepaymentReversalsTable;
  unapplied_payments: UnappliedPaymentsTable;
  loan_facts_stale: LoanFactsStaleTable;
  loan_reminders: LoanRemindersTable;
  terms_changes: TermsChangesTable;
  consents: ConsentsTable;
  account_closures: AccountClosuresTable;
  complaints: ComplaintsTable;
  complaint_replies: ComplaintRepliesTable;
  dashboard_figures: DashboardFiguresTable;
  // Migration 046: the queues' counts, in the same shape.
  queue_counts: DashboardFiguresTable;
  name_starts: NameStartsTable;
  name_words: NameWordsTable;
  application_quarters: ApplicationQuartersTable;
  products: ProductsTable;
  product_versions: ProductVersionsTable;
}

export type User = Selectable<UsersTable>;
