import { Select, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateUserSchema } from '../../../../domain/schemas/staff';
import { FormModal } from '../../../components/modals';
import { notifySuccess } from '../../../lib/notify';
import { type StaffUser, userLabel, useUpdateUser } from '../api/users';
import { staffRoleOptions, TemporaryPasswordInput, UserPhoneInput } from './user-fields';

export interface UserModalProps {
  user: StaffUser | null;
  opened: boolean;
  onClose: () => void;
}

/**
 * Update: the phone and a new temporary password the user must change at next login (SPEC §2.7); staff
 * roles can be changed too, except your own (nobody demotes themselves).
 */
export function UpdateUserModal({ user, opened, onClose, isSelf }: UserModalProps & { isSelf: boolean }) {
  const { t } = useTranslation();
  const update = useUpdateUser();
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<string | null>(null);
  useEffect(() => {
    if (opened && user) {
      setPhone(user.phone ?? '');
      setPassword('');
      setRole(user.role);
    }
  }, [opened, user]);

  const staffUser = user !== null && user.role !== 'borrower';
  const roleChanged = staffUser && !isSelf && role !== null && role !== user?.role;
  const body = { phone: phone.trim(), password, ...(roleChanged && role ? { role } : {}) };

  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={t('users.update.title')}
      confirmLabel={t('users.update.save')}
      validate={() => {
        const parsed = updateUserSchema.safeParse(body);
        if (parsed.success) return null;
        const codes = parsed.error.issues.map((issue) => issue.message);
        return t(`errors.${codes.includes('USER_UPDATE_REQUIRED') ? 'USER_UPDATE_REQUIRED' : codes[0]}`);
      }}
      onConfirm={async () => {
        if (!user) return;
        const updated = await update.run({ id: user.id, ...body });
        if (updated) notifySuccess(t('users.update.toast', { username: userLabel(user) }));
      }}
    >
      {user ? (
        <>
          <Text size="sm">
            {t('users.update.description', { username: userLabel(user), role: t(`roles.${user.role}`) })}
          </Text>
          <UserPhoneInput
            value={phone}
            data-autofocus
            onChange={(event) => setPhone(event.currentTarget.value)}
          />
          <TemporaryPasswordInput
            label={t('users.fields.newTemporaryPassword')}
            description={t('users.update.passwordHint')}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          {staffUser ? (
            <Select
              label={t('users.fields.role')}
              description={isSelf ? t('users.update.ownRole') : undefined}
              disabled={isSelf}
              data={staffRoleOptions(t)}
              value={role}
              onChange={setRole}
              allowDeselect={false}
            />
          ) : null}
        </>
      ) : null}
    </FormModal>
  );
}
