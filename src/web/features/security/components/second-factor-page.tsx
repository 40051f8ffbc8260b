import '../../../lib/styles/all';
import { Alert, Button, Divider, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle, IconFingerprint } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCardHeader } from '../../../components/auth-card-header';
import { AuthShell } from '../../../components/auth-shell';
import { LogoutButton } from '../../../components/logout-button';
import { useErrorText } from '../../../lib/error-text';
import { useSession } from '../../../lib/session';
import { usePasskeySignIn, useVerifySecondFactor } from '../api/security-api';

/**
 * The second step of a staff sign-in (docs/decisions/017), shown instead of every page while the session
 * waits for it: a code from the authenticator app or a recovery code, or a passkey.
 */
export function SecondFactorPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { data } = useSession();
  const methods = data?.secondFactor?.methods ?? [];
  const verify = useVerifySecondFactor();
  const passkey = usePasskeySignIn();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);

  // Once the factor is accepted the full session is in the cache and the page asked for shows right here:
  // the one sign-in went to (the back-office home, or where the user was when their session ended).
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('errors.SECOND_FACTOR_CODE_REQUIRED'));
      return;
    }
    verify.mutate(code.trim(), { onError: (e) => setError(errorText(e)) });
  };

  return (
    <AuthShell actions={<LogoutButton variant="white" color="dark" />}>
      <AuthCardHeader
        title={t('security.challenge.title')}
        subtitle={
          methods.includes('totp') ? t('security.challenge.subtitle') : t('security.challenge.passkeyOnly')
        }
      />
      <Stack gap="md">
        {methods.includes('passkey') ? (
          <Button
            variant="light"
            size="md"
            leftSection={<IconFingerprint size={20} />}
            loading={passkey.isPending}
            onClick={() =>
              passkey.mutate(undefined, {
                onError: (e) => setPasskeyError(errorText(e, 'PASSKEY_INVALID')),
              })
            }
          >
            {t('security.challenge.usePasskey')}
          </Button>
        ) : null}
        {passkeyError ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {passkeyError}
          </Alert>
        ) : null}
        {methods.includes('passkey') && methods.includes('totp') ? (
          <Divider label={t('security.challenge.or')} />
        ) : null}
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('security.challenge.codeLabel')}
              description={t('security.challenge.codeHint')}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              value={code}
              onChange={(event) => {
                setCode(event.currentTarget.value);
                setError(null);
              }}
              error={error}
            />
            <Button type="submit" size="md" fullWidth loading={verify.isPending}>
              {t('security.challenge.submit')}
            </Button>
          </Stack>
        </form>
      </Stack>
    </AuthShell>
  );
}
