import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';

/** The code an authenticator app shows for `secret`, `stepsAhead` 30-second steps from now. */
export function totpCode(secret: string, stepsAhead = 0): string {
  return new TOTP({
    secret: Secret.fromBase32(secret.replace(/\s/g, '')),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}

/**
 * Sets up the authenticator app on the enrolment screen shown (the Security page or the required set-up):
 * reads the key printed beside the QR code, types the current code, and returns the key and the recovery
 * codes while they are on screen (before "I have saved…" is clicked).
 */
export async function enrolTotpInBrowser(
  page: Page,
  hooks: { onQrCode?: () => Promise<void>; onRecoveryCodes?: () => Promise<void> } = {},
) {
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  await page.getByRole('img', { name: /QR code for your authenticator app/ }).waitFor();
  await hooks.onQrCode?.();
  await page.getByLabel('6-digit code from the app').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  await page.getByTestId('recovery-code').first().waitFor();
  const recoveryCodes = await page.getByTestId('recovery-code').allInnerTexts();
  await hooks.onRecoveryCodes?.();
  await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  return { secret, recoveryCodes };
}
