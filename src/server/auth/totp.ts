import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { hmac } from './crypto';

/**
 * TOTP as RFC 6238 with the settings every authenticator app supports: SHA-1, 6 digits, 30-second steps.
 * One step either side is accepted (clock drift); a step already used is refused (replay).
 */
export const totpPolicy = { algorithm: 'SHA1', digits: 6, period: 30, window: 1 } as const;

const ISSUER = 'Hiram';

function totpFor(base32: string, label = 'staff') {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: totpPolicy.algorithm,
    digits: totpPolicy.digits,
    period: totpPolicy.period,
    secret: Secret.fromBase32(base32),
  });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32 for manual entry. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(base32: string, label: string): string {
  return totpFor(base32, label).toString();
}

/**
 * The 30-second step a code belongs to, or null when it matches none of the current step and its
 * neighbours. The caller refuses a step that is not after the last one used.
 */
export function totpStep(base32: string, code: string, nowMs: number): number | null {
  const delta = totpFor(base32).validate({ token: code, timestamp: nowMs, window: totpPolicy.window });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / totpPolicy.period) + delta;
}

/** The key that encrypts TOTP secrets at rest: derived from SESSION_SECRET (validated ≥ 32 characters). */
function secretKey(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'hiram', 'totp-secret-v1', 32));
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encryptTotpSecret(sessionSecret: string, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(sessionSecret), iv);
  const data = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptTotpSecret(sessionSecret: string, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !data) throw new Error('unknown TOTP secret format');
  const decipher = createDecipheriv('aes-256-gcm', secretKey(sessionSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/** Ten codes like `k7m2p-x9qrt`: easy to copy by hand, 50 bits each. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** Case, spaces and the dash do not matter when a code is typed back. */
export function recoveryCodeHash(sessionSecret: string, code: string): string {
  return hmac(sessionSecret, `recovery:${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`);
}
