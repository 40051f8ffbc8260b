import { Alert, Button, Group, Modal, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { staffRoles } from '../../../../domain/roles';
import { updateUserSchema } from '../../../../domain/schemas/staff';
import { useErrorText } from '../../../lib/error-text';
import { notifySuccess } from '../../../lib/notify';
import { backOfficeKeys } from '../api/keys';
import { ConfirmModal, ReasonModal } from '../components/shared/modals';
import { TemporaryPasswordModal } from '../servicing/temporary-password-modal';
import { deleteUser, resetUserPassword, type StaffUser, updateUser, userLabel } from './users-api';

export interface UserModalProps {
  user: StaffUser | null;
  opened: boolean;
  onClose: () => void;
}

function useRefreshUsers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('users') }),
      // A deactivated borrower or a renamed staff member shows up in the other lists too.
      queryClient.invalidateQueries({ queryKey: backOfficeKeys.dashboard }),
    ]);
}

/**
 * Update: the phone and a new temporary password the user must change at next login (SPEC §2.7); staff
 * roles can be changed too, except your own (nobody demotes themselves).
 */
export function UpdateUserModal({ user, opened, onClose, isSelf }: UserModalProps & { isSelf: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const refresh = useRefreshUsers();
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (opened && user) {
      setPhone(user.phone ?? '');
      setPassword('');
      setRole(user.role);
      setError(null);
    }
  }, [opened, user]);

  const staffUser = user !== null && user.role !== 'borrower';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    const roleChanged = staffUser && !isSelf && role !== null && role !== user.role;
    const body = { phone: phone.trim(), password, ...(roleChanged && role ? { role } : {}) };
    const parsed = updateUserSchema.safeParse(body);
    if (!parsed.success) {
      const codes = parsed.error.issues.map((issue) => issue.message);
      setError(t(`errors.${codes.includes('USER_UPDATE_REQUIRED') ? 'USER_UPDATE_REQUIRED' : codes[0]}`));
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await updateUser(user.id, body);
      notifySuccess(t('users.update.toast', { username: userLabel(user) }));
      await refresh();
      onClose();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('users.update.title')} centered size="md">
      {user ? (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <Text size="sm">
              {t('users.update.description', { username: userLabel(user), role: t(`roles.${user.role}`) })}
            </Text>
            <TextInput
              label={t('users.fields.phone')}
              withAsterisk
              inputMode="numeric"
              autoComplete="off"
              maxLength={15}
              value={phone}
              data-autofocus
              onChange={(event) => setPhone(event.currentTarget.value.replace(/\D+/g, ''))}
            />
            <PasswordInput
              label={t('users.fields.newTemporaryPassword')}
              description={t('users.update.passwordHint')}
              withAsterisk
              autoComplete="new-password"
              maxLength={128}
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            {staffUser ? (
              <Select
                label={t('users.fields.role')}
                description={isSelf ? t('users.update.ownRole') : undefined}
                disabled={isSelf}
                data={staffRoles.map((value) => ({ value, label: t(`roles.${value}`) }))}
                value={role}
                onChange={setRole}
                allowDeselect={false}
              />
            ) : null}
            {error ? (
              <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" py="xs">
                {error}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} disabled={saving}>
                {t('backOffice.common.cancel')}
              </Button>
              <Button type="submit" loading={saving}>
                {t('users.update.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}

/** Reset Password: a reason, then the temporary password once (sessions end, change at next login). */
export function ResetUserPasswordModal({ user, opened, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const refresh = useRefreshUsers();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <>
      <ReasonModal
        opened={opened}
        onClose={onClose}
        title={t('users.resetPassword.title')}
        description={user ? t('users.resetPassword.description', { username: userLabel(user) }) : undefined}
        confirmLabel={t('users.resetPassword.confirm')}
        confirmColor="red.7"
        onConfirm={async (reason) => {
          if (!user) return;
          const result = await resetUserPassword(user.id, reason);
          notifySuccess(t('users.resetPassword.toast', { username: userLabel(user) }));
          setPassword(result.temporaryPassword);
          void refresh();
        }}
      />
      <TemporaryPasswordModal
        password={password}
        owner={user ? userLabel(user) : ''}
        onClose={() => setPassword(null)}
      />
    </>
  );
}

/**
 * Delete: "Are you sure you want to delete {username}?". A user who owns records is deactivated instead,
 * and the toast says which happened.
 */
export function DeleteUserModal({ user, opened, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const refresh = useRefreshUsers();
  const name = user ? userLabel(user) : '';
  return (
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title={t('users.delete.title')}
      message={
        <Stack gap="xs">
          <Text>{t('users.delete.question', { username: name })}</Text>
          <Text size="sm" c="dimmed">
            {t('users.delete.note')}
          </Text>
        </Stack>
      }
      confirmLabel={t('users.delete.confirm')}
      confirmColor="red.7"
      onConfirm={async () => {
        if (!user) return;
        const { outcome } = await deleteUser(user.id);
        notifySuccess(
          outcome === 'deleted'
            ? t('users.delete.deleted', { username: name })
            : t('users.delete.deactivated', { username: name }),
        );
        await refresh();
      }}
    />
  );
}
