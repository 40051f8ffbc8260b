import { Anchor, Checkbox, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { SignupInput } from '../../../../domain/schemas/auth';
import { AuthCardHeader } from '../../../components/auth-card-header';
import { FormAlerts } from '../../../components/form-alerts';
import { LoadedPrivacyNotice } from '../../../components/privacy-notice';
import { SafetyNotice } from '../../../components/safety-notice';
import { formErrorsFromError, formErrorsFromIssues, useFormErrors } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { usePrivacyNotice } from '../../../lib/privacy';
import { useSendSignupCode, useSignup } from '../api/signup';
import { authRulesFor, usePreloadAuthRules } from './auth-rules';
import { PendingSubmitButton } from './pending-submit-button';
import { PhoneCodePasswordFields } from './phone-code-password-fields';
import { useSendPhoneCode } from './use-send-phone-code';

const fieldNames = ['phone', 'password', 'confirmPassword', 'code'] as const;

type SignupFormValues = Omit<SignupInput, 'privacyNoticeVersion'>;

/**
 * /signup (SPEC §2.3): a phone written any common way (src/domain/phone.ts), a password, the code sent to
 * the phone and consent to the privacy notice. The new borrower is signed in by the sign-up itself and goes
 * on to apply (issue #32), with no second sign-in.
 */
export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sendCode = useSendSignupCode();
  const signup = useSignup();
  const errors = useFormErrors();
  const sender = useSendPhoneCode({
    mutation: sendCode,
    phoneRule: (rules) => rules.sendSignupCodeSchema,
    errors,
    sentMessage: (phone) => t('auth.signup.codeSent', { phone }),
  });
  const notice = usePrivacyNotice();
  const [agreed, setAgreed] = useState(false);
  const form = useForm<SignupFormValues>({
    mode: 'controlled',
    initialValues: { phone: '', password: '', confirmPassword: '', code: '' },
    onValuesChange: (values, previous) => {
      for (const name of fieldNames) if (values[name] !== previous[name]) errors.clearField(name);
    },
  });

  usePreloadAuthRules();

  const onSubmit = form.onSubmit(async (values) => {
    // Consent is to the version shown on this page (RA 10173); the server refuses any other.
    const privacyNoticeVersion = agreed && notice.data ? notice.data.version : '';
    const rules = await authRulesFor(errors, 'SIGNUP_FAILED');
    if (!rules) return;
    const parsed = rules.signupSchema.safeParse({ ...values, privacyNoticeVersion });
    if (!parsed.success) {
      errors.set(formErrorsFromIssues(parsed.error.issues));
      return;
    }
    errors.clear();
    signup.mutate(parsed.data, {
      onSuccess: () => {
        notifySuccess(t('auth.signup.success'));
        navigate('/loan', { replace: true });
      },
      onError: (error) => {
        const next = formErrorsFromError(error, 'SIGNUP_FAILED');
        if (next.fields.privacyNoticeVersion?.code === 'PRIVACY_NOTICE_OUTDATED') {
          // A new notice was published meanwhile: show it, and ask again.
          setAgreed(false);
          void notice.refetch();
        }
        errors.set(next);
      },
    });
  });

  const locked = signup.isPending || signup.isSuccess;

  return (
    <form onSubmit={onSubmit} noValidate>
      <AuthCardHeader title={t('auth.signup.title')} subtitle={t('auth.signup.subtitle')} />
      <Stack gap="sm">
        <PhoneCodePasswordFields
          texts="auth.signup"
          codeAfterPhone={false}
          form={form}
          errors={errors}
          locked={locked}
          sender={sender}
        />
        <LoadedPrivacyNotice notice={notice} maxHeight={180} />
        <Checkbox
          label={t('privacy.notice.agree')}
          checked={agreed}
          disabled={locked || !notice.data}
          onChange={(event) => {
            setAgreed(event.currentTarget.checked);
            errors.clearField('privacyNoticeVersion');
          }}
          error={errors.field('privacyNoticeVersion')}
        />
        <SafetyNotice />
        <FormAlerts error={errors.alert} />
        <PendingSubmitButton
          pending={signup.isPending}
          disabled={locked}
          label={t('auth.signup.submit')}
          pendingLabel={t('auth.signup.submitting')}
        />
        <Text ta="center" size="sm">
          {t('auth.signup.haveAccount')}{' '}
          <Anchor component={Link} to="/login" fw={600}>
            {t('auth.signup.logIn')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
