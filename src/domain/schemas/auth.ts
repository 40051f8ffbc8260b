import * as z from 'zod/mini';
import { codePattern } from '../codes';
import { languages } from '../languages';
import { canonicalMobilePattern, canonicalPhoneOrSame } from '../phone';
import { consentVersion } from './privacy';
import { miniText as text } from './text-mini';

// zod/mini: every borrower's first load carries these forms' schemas (docs/decisions/023).

/**
 * A phone as stored: a Philippine mobile number in its one form, "09171234567" (src/domain/phone.ts; issue
 * #32). Every phone field reads what was typed (any common writing) into this form first.
 */
export const phonePattern = canonicalMobilePattern;
export const passwordMinLength = 8;
/** Bounds hashing work per request; long enough for any passphrase. */
export const passwordMaxLength = 128;

/** A required text field: any missing, non-string or blank value reports `requiredCode`. */
const requiredText = (requiredCode: string) =>
  text({ error: requiredCode }).check(z.trim(), z.minLength(1, { error: requiredCode, abort: true }));

/** A Philippine mobile number written any common way, stored in its one form; anything else is PHONE_INVALID. */
const phoneField = (requiredCode: string) =>
  requiredText(requiredCode).check(
    z.overwrite(canonicalPhoneOrSame),
    z.regex(phonePattern, { error: 'PHONE_INVALID' }),
  );

const newPassword = (requiredCode: string) =>
  text({ error: requiredCode }).check(
    z.minLength(1, { error: requiredCode, abort: true }),
    z.minLength(passwordMinLength, { error: 'PASSWORD_TOO_SHORT', abort: true }),
    z.maxLength(passwordMaxLength, { error: 'PASSWORD_TOO_LONG' }),
  );

/** The repeated password: present (whether it matches is the object's check). */
const confirmation = () =>
  text({ error: 'SIGNUP_FIELDS_REQUIRED' }).check(z.minLength(1, { error: 'SIGNUP_FIELDS_REQUIRED' }));

const codeField = () =>
  requiredText('SIGNUP_FIELDS_REQUIRED').check(z.regex(codePattern, { error: 'CODE_INVALID' }));

/**
 * The language the sign-up screen shows (issue #36): the code SMS is written in it (the phone has no account
 * yet to hold one), and so is everything the new account is sent later. Omitted: English.
 */
const screenLanguage = () => z.optional(z.enum(languages, { error: 'VALIDATION_FAILED' }));

export const sendSignupCodeSchema = z.object({
  phone: phoneField('SIGNUP_FIELDS_REQUIRED'),
  language: screenLanguage(),
});
export type SendSignupCodeInput = z.infer<typeof sendSignupCodeSchema>;

export const signupSchema = z
  .object({
    phone: phoneField('SIGNUP_FIELDS_REQUIRED'),
    password: newPassword('SIGNUP_FIELDS_REQUIRED'),
    confirmPassword: confirmation(),
    code: codeField(),
    /** The privacy notice version the borrower read and agreed to (RA 10173; issue #14). */
    privacyNoticeVersion: consentVersion,
    language: screenLanguage(),
  })
  .check(
    z.refine((v) => v.password === v.confirmPassword, {
      error: 'PASSWORDS_DO_NOT_MATCH',
      path: ['confirmPassword'],
    }),
  );
export type SignupInput = z.infer<typeof signupSchema>;

/** "Forgot password?", step 1: a code to the account's phone (the answer never says whether it has one). */
export const sendPasswordResetCodeSchema = z.object({
  phone: phoneField('SIGNUP_FIELDS_REQUIRED'),
});
export type SendPasswordResetCodeInput = z.infer<typeof sendPasswordResetCodeSchema>;

/** "Forgot password?", step 2: the code and a new password. */
export const resetForgottenPasswordSchema = z
  .object({
    phone: phoneField('SIGNUP_FIELDS_REQUIRED'),
    code: codeField(),
    password: newPassword('SIGNUP_FIELDS_REQUIRED'),
    confirmPassword: confirmation(),
  })
  .check(
    z.refine((v) => v.password === v.confirmPassword, {
      error: 'PASSWORDS_DO_NOT_MATCH',
      path: ['confirmPassword'],
    }),
  );
export type ResetForgottenPasswordInput = z.infer<typeof resetForgottenPasswordSchema>;

export const loginSchema = z.object({
  identifier: requiredText('LOGIN_FIELDS_REQUIRED').check(z.maxLength(64, { error: 'INVALID_CREDENTIALS' })),
  password: text({ error: 'LOGIN_FIELDS_REQUIRED' }).check(
    z.minLength(1, { error: 'LOGIN_FIELDS_REQUIRED', abort: true }),
    z.maxLength(passwordMaxLength, { error: 'INVALID_CREDENTIALS' }),
  ),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: text({ error: 'SIGNUP_FIELDS_REQUIRED' }).check(
      z.minLength(1, { error: 'SIGNUP_FIELDS_REQUIRED' }),
      z.maxLength(passwordMaxLength, { error: 'CURRENT_PASSWORD_WRONG' }),
    ),
    newPassword: newPassword('SIGNUP_FIELDS_REQUIRED'),
    confirmPassword: confirmation(),
  })
  .check(
    z.refine((v) => v.newPassword === v.confirmPassword, {
      error: 'PASSWORDS_DO_NOT_MATCH',
      path: ['confirmPassword'],
    }),
    z.refine((v) => v.newPassword !== v.currentPassword, {
      error: 'PASSWORD_UNCHANGED',
      path: ['newPassword'],
    }),
  );
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
