import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuthCardHeader } from '../../../components/auth-card-header';
import { AuthShell } from '../../../components/auth-shell';
import { ChangePasswordForm } from '../../../components/change-password-form';
import { LogoutButton } from '../../../components/logout-button';
import { homePath } from '../../../lib/session';

/** Shown instead of every signed-in page while the user still has a temporary password. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthShell actions={<LogoutButton variant="white" color="dark" />}>
      <AuthCardHeader
        title={t('auth.changePassword.title')}
        subtitle={t('auth.changePassword.description')}
      />
      <ChangePasswordForm
        layout="page"
        onChanged={(session) => {
          if (session.user) navigate(homePath(session.user), { replace: true });
        }}
      />
    </AuthShell>
  );
}
