import type { BorrowerEventKind } from '../../../../domain/borrower-events';
import type { BorrowerMessageKind } from '../../../../domain/borrower-messages';
import type { ReminderKind } from '../../../../domain/loan/reminders';
import type { contactRelations } from '../../../../domain/schemas/application-fields';
import type { ConsentContext, ReminderStatus } from '../../../db/schema';

/**
 * Every file of the data export and every field in it, in the order the README explains them. A field of a
 * file is its key in each row (`user.phone`: `phone` of profile.json's `user`); a new column in the export
 * fails its API test until it is listed here and explained in every language.
 */
export const exportFiles = {
  'profile.json': [
    'exported_at',
    'user.id',
    'user.phone',
    'user.username',
    'user.role',
    'user.status',
    'user.avatar',
    'user.language',
    'user.created_at',
    'user.last_login_at',
  ],
  'applications.json': [
    'id',
    'loan_number',
    'borrower_id',
    'status',
    'status_message',
    'amount',
    'approved_amount',
    'term_months',
    'monthly_rate_bp',
    'monthly_payment',
    'terms',
    'product_version_id',
    'submitted_at',
    'signed_ip',
    'signed_user_agent',
    'decided_at',
    'decided_by',
    'reject_reason',
    'credit_score',
    'first_approved_by',
    'first_approved_at',
    'first_approval_credit_score',
    'closed_at',
    'outstanding_principal_minor',
    'next_due_on',
    'next_due_minor',
    'overdue_from',
    'unpaid_instalments',
    'principal_step_minor',
    'principal_step_on',
    'facts_as_of',
    'doc_id_front',
    'doc_id_back',
    'doc_selfie',
    'doc_signature',
  ],
  'disclosures.json': ['loan_number', 'disclosure_sha256', 'disclosure'],
  'disbursements.json': [
    'loan_number',
    'id',
    'application_id',
    'amount',
    'bank_name',
    'account_number',
    'status',
    'requested_at',
    'decided_at',
    'reference',
    'failure_reason',
  ],
  'repayments.json': [
    'loan_number',
    'id',
    'application_id',
    'amount',
    'received_on',
    'channel',
    'reference',
    'created_at',
    'reversal_reason',
    'reversed_at',
  ],
  'messages.json': [
    'events.loan_number',
    'events.id',
    'events.application_id',
    'events.kind',
    'events.message',
    'events.data',
    'events.created_at',
    'reminders.loan_number',
    'reminders.id',
    'reminders.borrower_id',
    'reminders.application_id',
    'reminders.kind',
    'reminders.due_date',
    'reminders.reminder_day',
    'reminders.phone',
    'reminders.amount',
    'reminders.text',
    'reminders.status',
    'reminders.attempts',
    'reminders.claimed_at',
    'reminders.sent_at',
    'reminders.last_error',
    'reminders.created_at',
  ],
  'consents.json': ['notice_version', 'context', 'consented_at', 'ip', 'user_agent'],
  'documents.json': ['file', 'kind', 'loan_number', 'sha256'],
} as const;

export type ExportFile = keyof typeof exportFiles | 'documents/';

/**
 * The application form's own fields: explained by their names on the form (src/domain/field-names), so the
 * README and the form say the same.
 */
export const formFieldsOfApplications = {
  phone: 'phone',
  full_name: 'fullName',
  id_number: 'idNumber',
  company_name: 'companyName',
  position: 'position',
  income: 'income',
  monthly_expense: 'monthlyExpense',
  address: 'address',
  email: 'email',
  contact_name: 'contactName',
  contact_phone: 'contactPhone',
  contact_address: 'contactAddress',
  contact_relation: 'contactRelation',
  bank_name: 'bankName',
  account_number: 'accountNumber',
} as const;

type Described<F extends keyof typeof exportFiles> = Record<(typeof exportFiles)[F][number], string>;

/** The README's words in one language. `{exportedAt}` is filled in. */
export interface ReadmeTexts {
  title: string;
  intro: string;
  /** How to read every file: amounts, dates, times, ids. */
  conventions: readonly string[];
  formField: string;
  valuesAre: string;
  files: { [F in keyof typeof exportFiles]: { about: string; fields: Described<F> } } & {
    'documents/': { about: string };
  };
  words: {
    eventKinds: Record<BorrowerEventKind, string>;
    messageKinds: Record<ReminderKind | BorrowerMessageKind, string>;
    reminderStatuses: Record<ReminderStatus, string>;
    consentContexts: Record<ConsentContext, string>;
    relations: Record<(typeof contactRelations)[number], string>;
  };
}
