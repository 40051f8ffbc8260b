import { z } from 'zod';
import { text } from './text';

/**
 * Staff second factor (issue #15, docs/decisions/017): TOTP codes from an authenticator app, single-use
 * recovery codes, and passkeys.
 */
export const totpCodePattern = /^\d{6}$/;

/** The second-factor step after the password: a 6-digit TOTP code or a recovery code such as k7m2p-x9qrt. */
export const secondFactorCodeSchema = z.object(
  {
    code: text({ error: 'SECOND_FACTOR_CODE_REQUIRED' })
      .trim()
      .min(1, { error: 'SECOND_FACTOR_CODE_REQUIRED', abort: true })
      .max(64, { error: 'SECOND_FACTOR_INVALID' }),
  },
  { error: 'SECOND_FACTOR_CODE_REQUIRED' },
);

/** Confirming the enrolment: only a current TOTP code. */
export const totpConfirmSchema = z.object(
  {
    code: text({ error: 'SECOND_FACTOR_CODE_REQUIRED' })
      .trim()
      .min(1, { error: 'SECOND_FACTOR_CODE_REQUIRED', abort: true })
      .regex(totpCodePattern, { error: 'SECOND_FACTOR_INVALID' }),
  },
  { error: 'SECOND_FACTOR_CODE_REQUIRED' },
);

export const totpSetupResponse = z.object({
  /** Base32, for typing into the app by hand (also what screen readers read instead of the QR code). */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The QR code as an SVG data URL. */
  qrCode: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;

export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

const passkeyDto = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});

/** What the signed-in user's Security page shows. */
export const securityResponse = z.object({
  /** Their role must use a second factor (STAFF_2FA_REQUIRED_ROLES). */
  secondFactorRequired: z.boolean(),
  totp: z.object({ enabled: z.boolean(), enabledAt: z.string().nullable() }),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.array(passkeyDto),
  /** Sessions of this user that are still open, this one included. */
  openSessions: z.number().int(),
});
export type SecurityResponse = z.infer<typeof securityResponse>;

export const passkeyNameSchema = text({ error: 'PASSKEY_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'PASSKEY_NAME_REQUIRED', abort: true })
  .max(60, { error: 'FIELD_TOO_LONG' });

/** The browser's WebAuthn answer, checked in full by @simplewebauthn/server. */
const webauthnResponse = z.looseObject({ id: z.string().min(1).max(2000), type: z.literal('public-key') });

export const passkeyRegistrationSchema = z.object(
  { name: passkeyNameSchema, response: webauthnResponse },
  { error: 'PASSKEY_INVALID' },
);

export const passkeyAuthenticationSchema = z.object(
  { response: webauthnResponse },
  { error: 'PASSKEY_INVALID' },
);
