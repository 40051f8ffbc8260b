import '../../../lib/styles/all';
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AuthShell } from '../../../components/auth-shell';
import { LogoutButton } from '../../../components/logout-button';
import { usePageTitle } from '../../../lib/use-page-title';
import { useFinishEnrolment } from '../api/security-api';
import { TotpEnrolment } from './totp-enrolment';

/**
 * Shown instead of every back-office page to staff whose role must use a second factor
 * (STAFF_2FA_REQUIRED_ROLES) until they set one up; the server refuses everything else meanwhile.
 */
export function EnrolmentRequiredPage() {
  const { t } = useTranslation();
  usePageTitle(t('security.required.title'));
  const finish = useFinishEnrolment();
  return (
    <AuthShell actions={<LogoutButton variant="white" color="dark" />}>
      <Stack gap={4} mb="lg" align="center" ta="center">
        <Title order={1} fz={{ base: 26, xs: 28 }}>
          {t('security.required.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('security.required.subtitle')}
        </Text>
      </Stack>
      <TotpEnrolment onDone={() => void finish()} />
    </AuthShell>
  );
}
