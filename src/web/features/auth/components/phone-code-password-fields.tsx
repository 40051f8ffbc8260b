import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { CodeField } from '../../../components/code-field';
import { PasswordField } from '../../../components/password-field';
import type { useFormErrors } from '../../../lib/form-errors';
import type { useSendPhoneCode } from './use-send-phone-code';

type PhoneCodePasswordValues = { phone: string; code: string; password: string; confirmPassword: string };

/**
 * The phone, SMS code and new password (twice) of the sign-up and forgotten-password forms: one set of
 * fields, labels and autocomplete hints for both. `texts` names the page's locale keys (the same names under
 * each); sign-up asks the code last, after the password, the reset asks it right after the phone.
 */
export function PhoneCodePasswordFields(props: {
  texts: 'auth.signup' | 'auth.forgot';
  codeAfterPhone: boolean;
  form: UseFormReturnType<PhoneCodePasswordValues>;
  errors: ReturnType<typeof useFormErrors>;
  locked: boolean;
  /** The page's `useSendPhoneCode`: "Send code" sends to the phone typed above. */
  sender: ReturnType<typeof useSendPhoneCode>;
}) {
  const { texts, codeAfterPhone, form, errors, locked, sender } = props;
  const { t } = useTranslation();
  const code = (
    <CodeField
      inputRef={sender.codeInput}
      label={t(`${texts}.code`)}
      disabled={locked}
      value={form.getValues().code}
      onChange={(value) => form.setFieldValue('code', value)}
      error={errors.field('code')}
      sendLabel={t(`${texts}.sendCode`)}
      resendLabel={(n) => t(`${texts}.resendIn`, { n })}
      secondsLeft={sender.countdown.remaining}
      sending={sender.sending}
      sendDisabled={locked}
      onSend={() => void sender.send(form.getValues().phone)}
    />
  );
  return (
    <>
      <TextInput
        label={t(`${texts}.phone`)}
        description={t(`${texts}.phoneHint`)}
        type="tel"
        autoComplete="tel"
        disabled={locked}
        {...form.getInputProps('phone')}
        error={errors.field('phone')}
      />
      {codeAfterPhone ? code : null}
      <PasswordField
        label={t(`${texts}.password`)}
        description={t(`${texts}.passwordHint`)}
        autoComplete="new-password"
        disabled={locked}
        {...form.getInputProps('password')}
        error={errors.field('password')}
      />
      <PasswordField
        label={t(`${texts}.confirmPassword`)}
        autoComplete="new-password"
        disabled={locked}
        {...form.getInputProps('confirmPassword')}
        error={errors.field('confirmPassword')}
      />
      {codeAfterPhone ? null : code}
    </>
  );
}
