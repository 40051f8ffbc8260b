import { PasswordInput, type PasswordInputProps, TextInput, type TextInputProps } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { staffRoles } from '../../../../domain/roles';
import { limits } from '../../../../domain/schemas/limits';

/** A user's phone, as Add User and Update User ask for it. */
export function UserPhoneInput(props: Omit<TextInputProps, 'label'>) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('users.fields.phone')}
      withAsterisk
      type="tel"
      autoComplete="off"
      maxLength={limits.phone}
      {...props}
    />
  );
}

/** A temporary password an administrator sets (the user must change it at next sign-in). */
export function TemporaryPasswordInput(props: PasswordInputProps & { label: string }) {
  return <PasswordInput withAsterisk autoComplete="new-password" maxLength={limits.password} {...props} />;
}

/** The staff roles as choices, each under its translated name. */
export const staffRoleOptions = (t: TFunction) =>
  staffRoles.map((role) => ({ value: role, label: t(`roles.${role}`) }));
