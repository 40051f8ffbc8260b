import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/modals';
import { notifySuccess } from '../../../lib/notify';
import { userLabel, useUnlockUser } from '../api/users';
import type { UserModalProps } from './update-user-modal';

/** Unlock: ends the wait after failed logins at once, so the user can sign in again (issue #15). */
export function UnlockUserModal({ user, opened, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const unlock = useUnlockUser();
  const name = user ? userLabel(user) : '';
  return (
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title={t('users.unlock.title')}
      message={t('users.unlock.question', { username: name })}
      confirmLabel={t('users.unlock.confirm')}
      onConfirm={async () => {
        if (!user) return;
        const result = await unlock.run(user.id);
        if (!result) return;
        notifySuccess(t('users.unlock.toast', { username: name }));
      }}
    />
  );
}
