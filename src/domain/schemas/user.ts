import { z } from 'zod';
import { languages } from '../languages';
import { roles, userStatuses } from '../roles';

/** The signed-in user as the API returns it (never the password hash). */
export const userDto = z.object({
  id: z.string(),
  username: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(roles),
  status: z.enum(userStatuses),
  mustChangePassword: z.boolean(),
  avatar: z.number().int().min(1).max(5),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  /** A borrower who has not accepted the current privacy notice: asked before anything else (issue #14). */
  privacyConsentRequired: z.boolean(),
  /** The language everything sent to this user is written in (issue #36); a new device's screen follows it. */
  language: z.enum(languages),
});
export type UserDto = z.infer<typeof userDto>;

export const meResponse = z.object({
  user: userDto.nullable(),
  /** Echo in the X-CSRF-Token header on every write while signed in. */
  csrfToken: z.string().nullable(),
  /**
   * Staff sign-in (docs/decisions/017), only while something is owed: "pending" after the password until a
   * second factor is given (with the methods this user has), "enrolmentRequired" until they set one up.
   */
  secondFactor: z
    .object({
      status: z.enum(['pending', 'enrolmentRequired']),
      methods: z.array(z.enum(['totp', 'passkey'])),
    })
    .optional(),
});
export type MeResponse = z.infer<typeof meResponse>;

/** PUT /api/account/language: the language the user just switched to, for everything sent to them (issue #36). */
export const languageChangeSchema = z.object({
  language: z.enum(languages, { error: 'VALIDATION_FAILED' }),
});
export const languageChangedResponse = z.object({ language: z.enum(languages) });

/**
 * GET and POST /api/account/sms-preferences: whether the borrower still wants the SMS they may turn off
 * (docs/decisions/041). Money moved or owed and anything to act on is sent whatever this says.
 */
export const smsPreferencesSchema = z.object({
  optionalSms: z.boolean({ error: 'VALIDATION_FAILED' }),
});
export type SmsPreferences = z.infer<typeof smsPreferencesSchema>;
