import { type ErrorParams, moneyParamsAsText } from './error-params';
import { isFieldKey } from './field-keys';
import fieldNamesEn from './field-names/en.json';
import { formatMoney } from './money';

// In a module of their own so the web's first load can format an error's params without this catalogue.
export { type ErrorParams, moneyParamsAsText };

/**
 * Every error the API can return has a string code from this catalogue. The English text is the exact
 * SPEC §5 wording; the web app translates the same code through its locale files (errors.<CODE>).
 * `{n}`-style placeholders are filled from the error's params. `{field}` is filled from `params.fieldKey` (the
 * field's key, e.g. `contactPhone`): each reader names the field in its own language (src/domain/field-names).
 */
export const errorMessages = {
  VALIDATION_FAILED: 'Please check the highlighted fields.',
  LOGIN_FIELDS_REQUIRED: 'Please enter phone or username and password',
  INVALID_CREDENTIALS: 'Incorrect phone, username or password',
  ACCOUNT_DEACTIVATED: 'This account is deactivated',
  TOO_MANY_ATTEMPTS: 'Too many attempts. Try again in {n} minutes.',
  LOGIN_FAILED: 'Login failed. Please try again.',
  SIGNUP_FIELDS_REQUIRED: 'Please fill in all fields',
  PHONE_INVALID: 'Phone number must be at least 10 digits and contain only numbers',
  PASSWORD_TOO_SHORT: 'Password must be at least 8 characters',
  PASSWORD_TOO_LONG: 'Password must be at most 128 characters',
  /** At least 8 characters is not enough: common and breached-pattern passwords are refused (issue #15). */
  PASSWORD_TOO_WEAK: 'This password is too easy to guess. Add more words or characters.',
  PASSWORDS_DO_NOT_MATCH: 'Passwords do not match',
  CODE_INVALID: 'Verification code is incorrect or expired',
  PHONE_TAKEN: 'Phone number already registered',
  SIGNUP_FAILED: 'Failed to register. Try again.',
  CODE_RESEND_TOO_SOON: 'Please wait {n} seconds before requesting another code.',
  CURRENT_PASSWORD_WRONG: 'Current password is incorrect',
  PASSWORD_UNCHANGED: 'The new password must be different from the current one',
  UNAUTHENTICATED: 'Please log in to continue.',
  PASSWORD_CHANGE_REQUIRED: 'You must change your password before continuing.',
  FORBIDDEN: 'You do not have permission to do this.',
  CSRF_FAILED: 'Your session could not be verified. Reload the page and try again.',
  NOT_FOUND: 'Not found.',
  RATE_LIMITED: 'Too many requests. Please slow down.',
  /** The per-address or overall hourly ceiling on sending verification codes (sign-up, withdrawal). */
  CODE_LIMIT_REACHED: 'Too many verification codes have been requested. Please try again in {n} minutes.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  /** A JSON body nested more deeply than any request of the API needs (issue #33). */
  JSON_TOO_DEEP: 'The request is nested too deeply.',
  INTERNAL: 'Something went wrong. Try again.',
  /** GET /api/health/ready: the database cannot be reached or its migrations are not current. */
  NOT_READY: 'The server is not ready to take requests yet.',
  // Loan application (SPEC §5 step 1 and step 2)
  PHONE_REQUIRED: 'Phone number is required.',
  LOAN_AMOUNT_INVALID: 'Loan amount must be between ₱10,000 and ₱300,000, in ₱10,000 increments',
  LOAN_TERM_INVALID: 'Please choose a loan period of 6, 12, 18 or 24 months.',
  FORM_HAS_ERRORS: 'Please fix the errors before proceeding.',
  ACTIVE_LOAN_EXISTS: 'You already have an active loan. You cannot apply again.',
  FIELD_REQUIRED: '{field} is required',
  FIELD_DIGITS_ONLY: '{field} must be digits only',
  FIELD_TOO_LONG: '{field} is too long',
  EMAIL_INVALID: 'Please enter a valid email address',
  IMAGE_INVALID: 'Pictures must be JPEG, PNG or WebP images',
  IMAGE_TOO_LARGE: 'Pictures must be at most 10 MB',
  IMAGE_TOO_MANY_PIXELS: 'This picture has too many pixels. Please use a smaller picture.',
  SIGNATURE_REQUIRED: 'Please sign in the box',
  SECTIONS_INCOMPLETE: 'Please complete all sections before submitting.',
  TERMS_CHANGED: 'The loan terms have changed. Please review them and sign again.',
  SUBMIT_FAILED: 'Something went wrong. Try again.',
  // Loan products (issue #31, docs/decisions/034): the borrower's choice
  LOAN_AMOUNT_OUT_OF_RANGE: 'Loan amount must be between {min} and {max}, in {step} increments',
  LOAN_AMOUNT_ABOVE_LIMIT: 'The most you can borrow with this product is {limit}. Choose a smaller amount.',
  LOAN_TERM_NOT_OFFERED: 'Please choose one of the loan periods this product offers.',
  PRODUCT_CHOICE_REQUIRED: 'Please choose a loan product.',
  PRODUCT_NOT_OFFERED: 'This loan product is no longer offered. Please choose again.',
  PRODUCT_TERMS_UPDATED:
    'The terms of this loan product have just changed. Please review the new terms and apply again.',
  // Loan products: the back office
  PRODUCT_NOT_FOUND: 'Loan product not found.',
  PRODUCT_INVALID: 'Please correct the highlighted fields.',
  PRODUCT_CODE_INVALID:
    'The code must be 2–32 lowercase letters, digits or dashes, starting with a letter (for example salary-loan).',
  PRODUCT_CODE_TAKEN: 'Another product already has this code.',
  PRODUCT_NAME_REQUIRED: 'Enter the product name in every language.',
  PRODUCT_NAME_TOO_LONG: 'The name must be at most 80 characters.',
  PRODUCT_AMOUNT_RULE_INVALID:
    'Enter whole pesos: a minimum, a maximum and a step, where the maximum is the minimum plus whole steps.',
  PRODUCT_TERMS_INVALID: 'Choose at least one loan period (1–120 months, each at most once).',
  PRODUCT_DEFAULT_TERM_INVALID: 'The default loan period must be one of the periods offered.',
  PRODUCT_FEE_INVALID: 'Enter a flat fee of 0 or more pesos and a percentage fee from 0% to below 100%.',
  PRODUCT_RATE_ABOVE_CAP: 'The monthly interest rate must be from 0% to 6% (the legal ceiling).',
  PRODUCT_LATE_CHARGE_ABOVE_CAP: 'The late charge must be from 0% to 5% a month (the legal ceiling).',
  PRODUCT_GRACE_DAYS_INVALID: 'Grace days must be a whole number from 0 to 31.',
  PRODUCT_COST_ABOVE_CAP:
    'Interest and fees would cost more than the amount lent for {amount} over {months} months (legal ceiling: 100%).',
  PRODUCT_EFFECTIVE_RATE_ABOVE_CAP:
    'The effective rate with fees would be above 15% a month for {amount} over {months} months (the legal ceiling).',
  PRODUCT_FEES_TOO_HIGH: 'The fees would take the whole loan of {amount}.',
  PRODUCT_ABOVE_LEGAL_CEILING: 'These terms are above the legal ceilings on the cost of credit.',
  PRODUCT_THRESHOLD_INVALID: 'Enter the four-eyes threshold in whole pesos, 0 or more.',
  PRODUCT_LIMIT_INVALID:
    'The limit must be an amount borrowers may ask for: between the minimum and the maximum, in whole steps.',
  PRODUCT_REPEAT_RULE_INVALID:
    'For repeat borrowers, give the number of loans repaid (1–50) and the most days late allowed (0–365).',
  PRODUCT_REPEAT_LIMIT_NOT_LARGER: 'The repeat borrower limit must be larger than the first-loan limit.',
  PRODUCT_UNCHANGED: 'Nothing was changed, so no new version was saved.',
  PRODUCT_VERSION_OUTDATED:
    'Someone saved a newer version of this product meanwhile. Review it and make your change again.',
  PRODUCT_ALREADY_RETIRED: 'This product is already retired.',
  PRODUCT_ALREADY_ACTIVE: 'This product is already offered.',
  // Back office (SPEC §5 staff)
  ALREADY_DECIDED: 'This application has already been decided.',
  REASON_REQUIRED: 'A reason is required.',
  LOAN_UPDATE_INVALID: 'Please enter a valid loan amount and loan period.',
  LOAN_TERM_TOO_SHORT:
    'This term would end the loan on {date}, before money already paid out could be repaid. Choose a longer term.',
  AMOUNT_BELOW_WITHDRAWN: 'The amount cannot be less than what has already been withdrawn ({amount}).',
  CREDIT_SCORE_INVALID: 'Please enter a credit score between 0 and 1000.',
  OWN_APPLICATION: 'You cannot decide an application made with your own phone number.',
  // Signed terms bind; four-eyes approval (issue #14, docs/decisions/018)
  TERMS_CHANGE_PENDING:
    "A change to the terms is waiting for the borrower's acceptance. Wait for the borrower or withdraw the change first.",
  TERMS_CHANGE_AWAITS_YOU:
    'Your lender has proposed new loan terms. Please accept or decline them on your wallet page first.',
  TERMS_CHANGE_NOT_OPEN: 'This change to the terms is no longer open.',
  BORROWER_REQUEST_REASON_REQUIRED:
    'A reduction the borrower asked for needs a reason, and only a lower amount with the same term can be applied directly.',
  AWAITING_SECOND_APPROVAL:
    'This application was approved once and needs a second staff member to confirm the approval.',
  NOT_AWAITING_SECOND_APPROVAL: 'This application is not waiting for a second approval.',
  OWN_APPROVAL_CONFIRM: 'You approved this application yourself. A different staff member must confirm it.',
  // Wallet and payouts (SPEC §5 withdraw)
  AMOUNT_INVALID: 'Enter a valid amount',
  AMOUNT_EXCEEDS_BALANCE: 'Amount exceeds balance',
  /** The loan's fee on this payout would take all of it (issue #31: fees are deducted from payouts). */
  WITHDRAWAL_BELOW_FEE: 'This amount does not cover the fee of {fee} taken from it. Enter a larger amount.',
  CODE_REQUIRED: 'Enter the verification code',
  WITHDRAWAL_CODE_INVALID: 'Invalid or expired code',
  WITHDRAWALS_PAUSED: 'Withdrawals are paused: {message}',
  LOAN_NOT_FOUND: 'Loan record not found',
  REFERENCE_REQUIRED: 'A transfer reference is required.',
  DISBURSEMENT_ALREADY_DECIDED: 'This disbursement has already been marked paid or failed.',
  AVATAR_INVALID: 'Please choose one of the five pictures.',
  STATUS_UNCHANGED: 'The loan already has this status.',
  STATUS_CHANGE_REFUSED: 'This loan cannot make that change in its current status. Refresh to see it.',
  // Repayments (issue #10)
  REPAYMENT_AMOUNT_INVALID: 'Enter an amount greater than zero, in pesos with at most two decimals.',
  REPAYMENT_DATE_INVALID: 'Enter the date the money was received.',
  REPAYMENT_DATE_IN_FUTURE: 'The date received cannot be in the future.',
  REPAYMENT_DATE_BEFORE_PAYOUT: 'The date received cannot be before the first payout ({date}).',
  PAYMENT_CHANNEL_INVALID: 'Please choose one of the payment channels.',
  REPAYMENT_REFERENCE_USED: 'This reference has already been recorded for this payment channel.',
  /** Finance refunds no more than the borrower's credit (money received above the payoff, issue #31). */
  REFUND_EXCEEDS_CREDIT: 'This is more than the {credit} held for the borrower on {date}.',
  LOAN_NOT_REPAYING: 'Repayments can only be recorded for a running loan that has been paid out.',
  REPAYMENT_ALREADY_REVERSED: 'This repayment has already been reversed.',
  PAYMENTS_WEBHOOK_DISABLED: 'Payment notifications are not enabled on this server.',
  WEBHOOK_SIGNATURE_INVALID: 'The payment notification signature is missing or does not match.',
  WEBHOOK_TIMESTAMP_INVALID: 'The payment notification timestamp is missing, too old or in the future.',
  UNAPPLIED_PAYMENT_RESOLVED: 'This payment has already been applied or returned.',
  WITHDRAWAL_PERIOD_ENDED: 'Withdrawals have ended: the last payment of this loan was due on {date}.',
  WITHDRAWAL_PREVIEW_OUTDATED:
    'Your payment plan has changed. Please review the new figures, then send the code again.',
  WITHDRAWAL_PLAN_CHANGED: 'Your payment plan changed. Please review it and request a new code.',
  PAYOUT_AFTER_LAST_DUE:
    'This payout can no longer be made: the last payment of this loan was due on {date}. Mark it failed instead.',
  // User management (SPEC §5 staff)
  USER_FIELDS_REQUIRED: 'Please fill all fields.',
  USER_UPDATE_REQUIRED: 'Phone and password cannot be empty.',
  USER_TAKEN: 'Phone number or username already in use',
  USERNAME_INVALID:
    'Username must be 3–32 letters, digits, dots, dashes or underscores, with at least one letter.',
  ROLE_INVALID: 'Unknown role.',
  CANNOT_CHANGE_SELF: 'You cannot delete, deactivate or demote your own account.',
  LAST_ADMIN: 'The last administrator cannot be deleted, deactivated or demoted.',
  USER_ALREADY_ACTIVE: 'This user is already active.',
  // Input hardening (issue #15)
  TEXT_INVALID_CHARACTERS:
    'This text contains characters that cannot be saved (such as a null character). Please retype it.',
  DATE_INVALID: 'Enter a real date between the years 1900 and 9999.',
  // Privacy and the borrower's own data (issue #14, RA 10173)
  PRIVACY_CONSENT_REQUIRED: 'Please read the privacy notice and tick the box to agree before continuing.',
  PRIVACY_NOTICE_OUTDATED:
    'The privacy notice has just been updated. Please read the new version and agree to it.',
  PRIVACY_RECONSENT_REQUIRED:
    'Our privacy notice has changed. Please read the new version and agree to it before continuing.',
  ACCOUNT_CLOSURE_APPLICATION_OPEN:
    'Your account cannot be closed while application {loanNumber} is waiting for a decision. You can close it once the application has been decided.',
  ACCOUNT_CLOSURE_LOAN_RUNNING:
    'Your account cannot be closed while loan {loanNumber} is running. You can close it once the loan is paid off; the last payment is due on {date}.',
  ACCOUNT_CLOSURE_LOAN_OPEN:
    'Your account cannot be closed while loan {loanNumber} is open. Please contact support to end it first.',
  // Complaints (issue #14: RA 11765 redress)
  COMPLAINT_NOT_FOUND: 'Complaint not found.',
  COMPLAINT_RESOLVED: 'This complaint has already been resolved.',
  COMPLAINT_CATEGORY_INVALID: 'Please choose what your complaint is about.',
  COMPLAINT_TEXT_REQUIRED: 'Please describe your complaint.',
  COMPLAINT_REPLY_REQUIRED: 'Please write a reply.',
  COMPLAINT_RESOLUTION_REQUIRED: 'Please write how the complaint was resolved.',
  COMPLAINT_ASSIGNEE_INVALID: 'Please choose an active officer or administrator.',
  // Staff sign-in (issue #15, docs/decisions/017)
  SECOND_FACTOR_REQUIRED: 'Enter the code from your authenticator app to finish signing in.',
  SECOND_FACTOR_ENROLMENT_REQUIRED: 'Set up two-step sign-in on your Security page before continuing.',
  SECOND_FACTOR_CODE_REQUIRED: 'Enter the 6-digit code or a recovery code.',
  SECOND_FACTOR_INVALID: 'That code is not valid or was already used. Try the next code from your app.',
  TOTP_ALREADY_ENABLED: 'An authenticator app is already set up for this account.',
  TOTP_SETUP_EXPIRED: 'Start the set-up again to get a new QR code.',
  PASSKEY_NAME_REQUIRED: 'Give the passkey a name, such as the device it is on.',
  PASSKEY_INVALID: 'The passkey could not be verified. Please try again.',
} as const;

export type ErrorCode = keyof typeof errorMessages;

export interface FieldError {
  code: ErrorCode;
  message: string;
  params?: ErrorParams;
}

/** A field's error as use cases give it: a code, or a code with its own placeholders. */
export type FieldErrorInput = ErrorCode | { code: ErrorCode; params?: ErrorParams };

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    fields: Record<string, FieldError>;
    params?: ErrorParams;
  };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorMessages, value);
}

export function formatMessage(code: ErrorCode, params?: ErrorParams): string {
  const template: string = errorMessages[code];
  if (!params) return template;
  const shown = moneyParamsAsText(params, (minor, options) =>
    formatMoney(minor, { locale: 'en-PH', ...options }),
  );
  if (isFieldKey(params.fieldKey)) shown.field = fieldNamesEn[params.fieldKey];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in shown ? String(shown[name]) : whole,
  );
}

/** The one error type use cases throw; the server maps `code` to an HTTP status in one place. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields: Record<string, FieldError>;
  readonly params: ErrorParams | undefined;
  /** For a refusal to slow down (429): how many seconds to wait, sent as the Retry-After header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    options: {
      fields?: Partial<Record<string, FieldErrorInput>>;
      params?: ErrorParams;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(formatMessage(code, options.params));
    this.name = 'AppError';
    this.code = code;
    this.params = options.params;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.fields = {};
    for (const [field, input] of Object.entries(options.fields ?? {})) {
      if (!input) continue;
      const { code: fieldCode, params } =
        typeof input === 'string' ? { code: input, params: undefined } : input;
      const merged = params ?? options.params;
      this.fields[field] = {
        code: fieldCode,
        message: formatMessage(fieldCode, merged),
        ...(params ? { params } : {}),
      };
    }
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        fields: this.fields,
        ...(this.params ? { params: this.params } : {}),
      },
    };
  }
}
