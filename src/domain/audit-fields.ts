import en from './audit-labels/en.json';
import fil from './audit-labels/fil.json';
import km from './audit-labels/km.json';
import zh from './audit-labels/zh.json';

/**
 * What each field an audit event records holds, so the audit screen and the CSV export write a change the
 * same way: money in centavos as money, statuses and roles by their names, dates and moments as such,
 * flags as Yes/No. `recordAudit` (src/server) takes only these fields; an older row's unknown field reads
 * as plain text.
 */
export type AuditFieldKind =
  | 'money'
  | 'status'
  | 'role'
  | 'date'
  | 'dateTime'
  | 'number'
  | 'text'
  | 'boolean'
  | 'password'
  /** A rate in basis points (200 = 2 %), written as a percentage. */
  | 'basisPoints';

export const auditFieldKinds = {
  amount: 'money',
  approvedAmount: 'money',
  monthlyPayment: 'money',
  amountMinor: 'money',
  earlierAmountMinor: 'money',
  creditMinor: 'money',
  termMonths: 'number',
  creditScore: 'number',
  status: 'status',
  role: 'role',
  receivedOn: 'date',
  mustChangePassword: 'boolean',
  reversed: 'boolean',
  borrowerRequested: 'boolean',
  awaitingBorrower: 'boolean',
  awaitingSecondApproval: 'boolean',
  locked: 'boolean',
  failedLogins: 'number',
  password: 'password',
  statusMessage: 'text',
  assignedTo: 'text',
  reference: 'text',
  bankName: 'text',
  accountNumber: 'text',
  message: 'text',
  username: 'text',
  phone: 'text',
  channel: 'text',
  receivedAt: 'dateTime',
  payerReference: 'text',
  reason: 'text',
  repaymentId: 'text',
  totp: 'boolean',
  recoveryCodes: 'number',
  recoveryCodesLeft: 'number',
  passkey: 'text',
  passkeys: 'number',
  sessionsEnded: 'number',
  // Loan products (docs/decisions/034): a version's terms, amounts in centavos, rates in basis points.
  productCode: 'text',
  productVersion: 'number',
  nameEn: 'text',
  nameFil: 'text',
  nameZh: 'text',
  nameKm: 'text',
  borrowerMinAmount: 'money',
  borrowerMaxAmount: 'money',
  borrowerAmountStep: 'money',
  staffMinAmount: 'money',
  staffMaxAmount: 'money',
  staffAmountStep: 'money',
  termsOffered: 'text',
  defaultTermMonths: 'number',
  monthlyRate: 'basisPoints',
  feeFlat: 'money',
  feePercent: 'basisPoints',
  lateCharge: 'basisPoints',
  graceDays: 'number',
  fourEyesThreshold: 'money',
  firstLoanMaxAmount: 'money',
  repeatMaxAmount: 'money',
  repeatAfterLoans: 'number',
  repeatMaxDaysLate: 'number',
  // A user's language code (issue #36): en, fil, zh, km.
  language: 'text',
} as const satisfies Record<string, AuditFieldKind>;

/** A field an audit event may record: `recordAudit` (src/server) accepts no other, so each has its kind. */
export type AuditField = keyof typeof auditFieldKinds;

function auditFieldKind(field: string): AuditFieldKind {
  return Object.hasOwn(auditFieldKinds, field) ? auditFieldKinds[field as AuditField] : 'text';
}

/**
 * The audit labels in every language: CSV headers, field names, values, statuses, roles and actions. ONE
 * catalogue: the server's CSV export reads it, and the web merges it into its locales as `auditLabels`.
 */
export const auditLabels = { en, zh, km, fil } as const;
export type AuditLabelLanguage = keyof typeof auditLabels;
export type AuditLabels = typeof en;

type ActionGroups = AuditLabels['actions'];
/**
 * Every action an audit event may record, "group.name" as the catalogue's `actions` lists them: the server
 * records no other (`recordAudit` takes only these), so each has a label in every language.
 */
export type AuditAction = {
  [G in keyof ActionGroups]: `${G & string}.${keyof ActionGroups[G] & string}`;
}[keyof ActionGroups];

export const auditActions: readonly AuditAction[] = Object.entries(en.actions).flatMap(([group, names]) =>
  Object.keys(names).map((name) => `${group}.${name}` as AuditAction),
);

export function isAuditAction(action: string): action is AuditAction {
  return (auditActions as readonly string[]).includes(action);
}

/** What an audit event is about (its `target_type`); the audit screen names each in every language. */
export const auditTargetTypes = [
  'application',
  'loan',
  'user',
  'disbursement',
  'repayment',
  'unapplied_payment',
  'complaint',
  'product',
] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

export function isAuditTargetType(type: string): type is AuditTargetType {
  return (auditTargetTypes as readonly string[]).includes(type);
}

/** How one language writes the values of a change (the web's formatters, or the server's). */
export interface AuditValueWriters {
  money: (minor: number) => string;
  /** A calendar date 'YYYY-MM-DD'. */
  date: (isoDate: string) => string;
  /** A moment, as an ISO 8601 timestamp. */
  dateTime: (iso: string) => string;
  number: (value: number) => string;
  status: (status: string) => string;
  role: (role: string) => string;
  yes: string;
  no: string;
  passwordReset: string;
}

/** What a missing value reads as, in every language. */
const noValue = '—';

export function auditValueText(field: string, value: unknown, write: AuditValueWriters): string {
  if (value === null || value === undefined || value === '') return noValue;
  const kind = auditFieldKind(field);
  if (kind === 'money' && typeof value === 'number') return write.money(value);
  if (kind === 'number' && typeof value === 'number') return write.number(value);
  if (kind === 'basisPoints' && typeof value === 'number') return `${write.number(value / 100)}%`;
  if (kind === 'boolean' && typeof value === 'boolean') return value ? write.yes : write.no;
  if (kind === 'status' && typeof value === 'string') return write.status(value);
  if (kind === 'role' && typeof value === 'string') return write.role(value);
  if (kind === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))
    return write.date(value);
  if (kind === 'dateTime' && typeof value === 'string' && !Number.isNaN(Date.parse(value)))
    return write.dateTime(value);
  if (kind === 'password' && value === 'reset') return write.passwordReset;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** "Amount: ₱140,000.00 → ₱160,000.00", one line per changed field, in the writers' language. */
export function auditChangeLines(
  changes: Record<string, { before: unknown; after: unknown }>,
  fieldLabel: (field: string) => string,
  write: AuditValueWriters,
): string[] {
  return Object.entries(changes).map(
    ([field, { before, after }]) =>
      `${fieldLabel(field)}: ${auditValueText(field, before, write)} → ${auditValueText(field, after, write)}`,
  );
}

/** The field's label in a catalogue, or its name when the catalogue does not know it. */
export function auditFieldLabel(labels: AuditLabels, field: string): string {
  return (labels.fields as Record<string, string>)[field] ?? field;
}
