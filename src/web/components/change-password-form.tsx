import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { type ChangePasswordInput, changePasswordSchema } from '../../domain/schemas/auth';
import { formErrorsFromError, formErrorsFromIssues, useFormErrors } from '../lib/form-errors';
import { notifySuccess } from '../lib/notify';
import { type Session, useChangePassword } from '../lib/session';
import { FormAlerts } from './form-alerts';
import { PasswordField } from './password-field';

const fieldNames = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

export interface ChangePasswordFormProps {
  /** After the server took the new password (the session is already updated). */
  onChanged?: (session: Session) => void;
  /** The forced-change page uses the large full-width layout; My Account the compact one. */
  layout?: 'page' | 'compact';
  'aria-label'?: string;
}

/** Current password, new password and its confirmation, checked by the same schema as the server. */
export function ChangePasswordForm({ onChanged, layout = 'compact', ...rest }: ChangePasswordFormProps) {
  const { t } = useTranslation();
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
        form.reset();
        notifySuccess(t('auth.changePassword.success'));
        onChanged?.(session);
      },
      onError: (error) => errors.set(formErrorsFromError(error, 'INTERNAL')),
    });
  });

  const page = layout === 'page';
  return (
    <form onSubmit={onSubmit} noValidate aria-label={rest['aria-label']}>
      <Stack gap={page ? 'md' : 'sm'}>
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
        <FormAlerts error={errors.alert} />
        <Button
          type="submit"
          fullWidth={page}
          size={page ? 'md' : undefined}
          loading={changePassword.isPending}
        >
          {t('auth.changePassword.submit')}
        </Button>
      </Stack>
    </form>
  );
}
