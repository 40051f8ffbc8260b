import { Alert, Button, Checkbox, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCardHeader } from '../../../components/auth-card-header';
import { AuthShell } from '../../../components/auth-shell';
import { LogoutButton } from '../../../components/logout-button';
import { LoadedPrivacyNotice } from '../../../components/privacy-notice';
import { useErrorText } from '../../../lib/error-text';
import { usePrivacyNotice } from '../../../lib/privacy';
import { useAgreeToPrivacyNotice } from '../../../lib/session';

/**
 * Shown instead of every borrower page while the borrower has not agreed to the privacy notice in force
 * (the lender published a new version, RA 10173): the new notice, a box to tick, and "Agree and continue".
 * The server refuses every other borrower request meanwhile (PRIVACY_RECONSENT_REQUIRED).
 */
export function ConsentPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const notice = usePrivacyNotice();
  const agree = useAgreeToPrivacyNotice();
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!agreed || !notice.data) {
      setError(t('errors.PRIVACY_CONSENT_REQUIRED'));
      return;
    }
    setError(null);
    agree.mutate(notice.data.version, {
      onError: (failure) => {
        setAgreed(false);
        void notice.refetch();
        setError(errorText(failure, 'INTERNAL'));
      },
    });
  };

  return (
    <AuthShell actions={<LogoutButton variant="white" color="dark" />}>
      <form onSubmit={onSubmit} noValidate>
        <AuthCardHeader title={t('privacy.reconsent.title')} subtitle={t('privacy.reconsent.intro')} />
        <Stack gap="sm">
          <LoadedPrivacyNotice notice={notice} maxHeight={360} />
          <Checkbox
            label={t('privacy.notice.agree')}
            checked={agreed}
            disabled={!notice.data || agree.isPending}
            onChange={(event) => {
              setAgreed(event.currentTarget.checked);
              setError(null);
            }}
            error={error !== null}
          />
          {error ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" fullWidth size="md" disabled={agree.isPending} loading={agree.isPending}>
            {agree.isPending ? t('privacy.reconsent.submitting') : t('privacy.reconsent.submit')}
          </Button>
        </Stack>
      </form>
    </AuthShell>
  );
}
