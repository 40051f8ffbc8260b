import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { LoginInput } from '../../../../domain/schemas/auth';
import { AuthCardHeader } from '../../../components/auth-card-header';
import { FormAlerts } from '../../../components/form-alerts';
import { PasswordField } from '../../../components/password-field';
import { formErrorsFromError, formErrorsFromIssues, useFormErrors } from '../../../lib/form-errors';
import { returnPathFrom, sessionEndedIn } from '../../../lib/return-path';
import { homePath, useLogin } from '../../../lib/session';
import { authRulesFor, usePreloadAuthRules } from './auth-rules';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  // The session ended under the user (issue #32): say so, and go back to their page afterwards.
  const ended = sessionEndedIn(search);
  const login = useLogin();
  const errors = useFormErrors();
  const form = useForm<LoginInput>({
    mode: 'controlled',
    initialValues: { identifier: '', password: '' },
    onValuesChange: (values, previous) => {
      for (const name of ['identifier', 'password'] as const) {
        if (values[name] !== previous[name]) errors.clearField(name);
      }
    },
  });

  usePreloadAuthRules();

  const onSubmit = form.onSubmit(async (values) => {
    const rules = await authRulesFor(errors, 'LOGIN_FAILED');
    if (!rules) return;
    const parsed = rules.loginSchema.safeParse(values);
    if (!parsed.success) {
      errors.set(formErrorsFromIssues(parsed.error.issues));
      return;
    }
    errors.clear();
    login.mutate(parsed.data, {
      onSuccess: (session) => {
        const user = session.user;
        if (user) navigate(returnPathFrom(search, user.role) ?? homePath(user), { replace: true });
      },
      onError: (error) => errors.set(formErrorsFromError(error, 'LOGIN_FAILED')),
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <AuthCardHeader title={t('auth.login.title')} subtitle={t('auth.login.subtitle')} />
      <Stack gap="md">
        {ended ? (
          <Alert color="yellow" variant="light" role="status">
            {t('session.ended')}
          </Alert>
        ) : null}
        <TextInput
          label={t('auth.login.identifier')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          {...form.getInputProps('identifier')}
          error={errors.field('identifier')}
        />
        <PasswordField
          label={t('auth.login.password')}
          autoComplete="current-password"
          {...form.getInputProps('password')}
          error={errors.field('password')}
        />
        <Anchor component={Link} to="/forgot-password" size="sm" fw={600} ta="right" mt={-8}>
          {t('auth.login.forgotPassword')}
        </Anchor>
        <FormAlerts error={errors.alert} />
        <Button type="submit" fullWidth size="md" loading={login.isPending}>
          {t('auth.login.submit')}
        </Button>
        <Text ta="center" size="sm">
          {t('auth.login.noAccount')}{' '}
          <Anchor component={Link} to="/signup" fw={600}>
            {t('auth.login.signUp')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
