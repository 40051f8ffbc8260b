import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/modals';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteUser, userLabel } from '../api/users';
import type { UserModalProps } from './update-user-modal';

/**
 * Delete: "Are you sure you want to delete {username}?". A user who owns records is deactivated instead,
 * and the toast says which happened.
 */
export function DeleteUserModal({ user, opened, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const remove = useDeleteUser();
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
        const result = await remove.run(user.id);
        if (!result) return;
        notifySuccess(
          result.outcome === 'deleted'
            ? t('users.delete.deleted', { username: name })
            : t('users.delete.deactivated', { username: name }),
        );
      }}
    />
  );
}
