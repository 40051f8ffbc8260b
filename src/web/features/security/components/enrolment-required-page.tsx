import '../../../lib/styles/all';
import { useTranslation } from 'react-i18next';
import { AuthCardHeader } from '../../../components/auth-card-header';
import { AuthShell } from '../../../components/auth-shell';
import { LogoutButton } from '../../../components/logout-button';
import { useFinishEnrolment } from '../api/security-api';
import { TotpEnrolment } from './totp-enrolment';

/**
 * Shown instead of every back-office page to staff whose role must use a second factor
 * (STAFF_2FA_REQUIRED_ROLES) until they set one up; the server refuses everything else meanwhile.
 */
export function EnrolmentRequiredPage() {
  const { t } = useTranslation();
  const finish = useFinishEnrolment();
  return (
    <AuthShell actions={<LogoutButton variant="white" color="dark" />}>
      <AuthCardHeader title={t('security.required.title')} subtitle={t('security.required.subtitle')} />
      <TotpEnrolment onDone={() => void finish()} />
    </AuthShell>
  );
}
