import { Alert, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type ChangePasswordInput, changePasswordSchema } from '../../../../domain/schemas/auth';
import { AuthShell } from '../../../components/auth-shell';
import { LogoutButton } from '../../../components/logout-button';
import { PasswordField } from '../../../components/password-field';
import { formErrorsFromError, formErrorsFromIssues, useFormErrors } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { homePath, useChangePassword } from '../../../lib/session';
import { AuthCardHeader } from './auth-card-header';

const fieldNames = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** Shown instead of every signed-in page while the user still has a temporary password. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const changePassword = useChangePassword();
  const errors = useFormErrors();
  const form = useForm<ChangePasswordInput>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    onValuesChange: (values, previous) => {
      for (const name of fieldNames) if (values[name] !== previous[name]) errors.clearField(name);
    },
  });

  const onSubmit = form.onSubmit((values) => {
    const parsed = changePasswordSchema.safeParse(values);
    if (!parsed.success) {
      errors.set(formErrorsFromIssues(parsed.error.issues));
      return;
    }
    errors.clear();
    changePassword.mutate(parsed.data, {
      onSuccess: (session) => {
        notifySuccess(t('auth.changePassword.success'));
        if (session.user) navigate(homePath(session.user), { replace: true });
      },
      onError: (error) => errors.set(formErrorsFromError(error, 'INTERNAL')),
    });
  });

  return (
    <AuthShell actions={<LogoutButton variant="white" color="dark" />}>
      <form onSubmit={onSubmit} noValidate>
        <AuthCardHeader
          title={t('auth.changePassword.title')}
          subtitle={t('auth.changePassword.description')}
        />
        <Stack gap="md">
          <PasswordField
            label={t('auth.changePassword.current')}
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
            error={errors.field('currentPassword')}
          />
          <PasswordField
            label={t('auth.changePassword.new')}
            description={t('auth.signup.passwordHint')}
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
            error={errors.field('newPassword')}
          />
          <PasswordField
            label={t('auth.changePassword.confirm')}
            autoComplete="new-password"
            {...form.getInputProps('confirmPassword')}
            error={errors.field('confirmPassword')}
          />
          {errors.alert ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {errors.alert}
            </Alert>
          ) : null}
          <Button type="submit" fullWidth size="md" loading={changePassword.isPending}>
            {t('auth.changePassword.submit')}
          </Button>
        </Stack>
      </form>
    </AuthShell>
  );
}
