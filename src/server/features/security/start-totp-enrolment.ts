import { AppError } from '../../../domain/errors';
import type { TotpSetupResponse } from '../../../domain/schemas/second-factor';
import { encryptTotpSecret, newTotpSecret, totpUri } from '../../auth/totp';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';

/**
 * Step 1 of setting up an authenticator app: a new secret, kept encrypted and unconfirmed until a code from
 * the app proves it was scanned. Shown only now; once confirmed it is never returned again.
 */
export async function startTotpEnrolment(deps: AppDeps, user: User): Promise<TotpSetupResponse> {
  const existing = await deps.db
    .selectFrom('user_totp')
    .select('confirmed_at')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (existing?.confirmed_at) throw new AppError('TOTP_ALREADY_ENABLED');
  const secret = newTotpSecret();
  const encrypted = encryptTotpSecret(deps.config.sessionSecret, secret);
  await deps.db
    .insertInto('user_totp')
    .values({ user_id: user.id, secret_encrypted: encrypted })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret_encrypted: encrypted, last_used_step: null })
        .where('user_totp.confirmed_at', 'is', null),
    )
    .execute();
  const otpauthUrl = totpUri(secret, user.username ?? user.phone ?? 'staff');
  const { default: QRCode } = await import('qrcode'); // loaded here, not at start-up (issue #35)
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return {
    secret,
    otpauthUrl,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}
