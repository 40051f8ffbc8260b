import { Anchor, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ResetForgottenPasswordInput } from '../../../../domain/schemas/auth';
import { AuthCardHeader } from '../../../components/auth-card-header';
import { FormAlerts } from '../../../components/form-alerts';
import { SafetyNotice } from '../../../components/safety-notice';
import { formErrorsFromError, formErrorsFromIssues, useFormErrors } from '../../../lib/form-errors';
import { useResetForgottenPassword, useSendPasswordResetCode } from '../api/password-reset';
import { authRulesFor, usePreloadAuthRules } from './auth-rules';
import { PendingSubmitButton } from './pending-submit-button';
import { PhoneCodePasswordFields } from './phone-code-password-fields';
import { useGoToLoginAfter, useSendPhoneCode } from './use-send-phone-code';

/** After a successful reset the page says so, then goes to /login after this long. */
export const redirectAfterResetMs = 2000;
const fieldNames = ['phone', 'code', 'password', 'confirmPassword'] as const;

/**
 * `/forgot-password` (signed out): a code by SMS to the account's phone, then a new password. The server
 * answers the same whether or not the phone has an account, and so does this page. A password that is
 * too easy to guess is refused by the server, whose message shows under the field.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const sendCode = useSendPasswordResetCode();
  const reset = useResetForgottenPassword();
  const errors = useFormErrors();
  const sender = useSendPhoneCode({
    mutation: sendCode,
    phoneRule: (rules) => rules.sendPasswordResetCodeSchema,
    errors,
    sentMessage: (phone) => t('auth.forgot.codeSent', { phone }),
  });
  const [succeeded, setSucceeded] = useState(false);
  const form = useForm<ResetForgottenPasswordInput>({
    mode: 'controlled',
    initialValues: { phone: '', code: '', password: '', confirmPassword: '' },
    onValuesChange: (values, previous) => {
      for (const name of fieldNames) if (values[name] !== previous[name]) errors.clearField(name);
    },
  });

  useGoToLoginAfter(succeeded, redirectAfterResetMs);
  usePreloadAuthRules();

  const onSubmit = form.onSubmit(async (values) => {
    const rules = await authRulesFor(errors, 'INTERNAL');
    if (!rules) return;
    const parsed = rules.resetForgottenPasswordSchema.safeParse(values);
    if (!parsed.success) {
      errors.set(formErrorsFromIssues(parsed.error.issues));
      return;
    }
    errors.clear();
    reset.mutate(parsed.data, {
      onSuccess: () => setSucceeded(true),
      onError: (error) => errors.set(formErrorsFromError(error, 'INTERNAL')),
    });
  });

  const locked = reset.isPending || succeeded;

  return (
    <form onSubmit={onSubmit} noValidate>
      <AuthCardHeader title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')} />
      <Stack gap="sm">
        <PhoneCodePasswordFields
          texts="auth.forgot"
          codeAfterPhone
          form={form}
          errors={errors}
          locked={locked}
          sender={sender}
        />
        <SafetyNotice />
        <FormAlerts error={errors.alert} success={succeeded ? t('auth.forgot.success') : null} />
        <PendingSubmitButton
          pending={reset.isPending}
          disabled={locked}
          label={t('auth.forgot.submit')}
          pendingLabel={t('auth.forgot.submitting')}
        />
        <Text ta="center" size="sm">
          <Anchor component={Link} to="/login" fw={600}>
            {t('auth.forgot.backToLogin')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
