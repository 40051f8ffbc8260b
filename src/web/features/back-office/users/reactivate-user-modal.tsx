import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../lib/notify';
import { backOfficeKeys } from '../api/keys';
import { ReasonModal } from '../components/shared/modals';
import { TemporaryPasswordModal } from '../servicing/temporary-password-modal';
import { reactivateUser, type StaffUser, userLabel } from './users-api';

export interface ReactivateUserModalProps {
  user: StaffUser | null;
  opened: boolean;
  onClose: () => void;
}

/**
 * Reactivate: a required reason, then the temporary password once (the old password is not trusted
 * again; the user chooses a new one at the next login).
 */
export function ReactivateUserModal({ user, opened, onClose }: ReactivateUserModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <>
      <ReasonModal
        opened={opened}
        onClose={onClose}
        title={t('users.reactivate.title')}
        description={user ? t('users.reactivate.description', { username: userLabel(user) }) : undefined}
        confirmLabel={t('users.reactivate.confirm')}
        onConfirm={async (reason) => {
          if (!user) return;
          const result = await reactivateUser(user.id, reason);
          notifySuccess(t('users.reactivate.toast', { username: userLabel(user) }));
          setPassword(result.temporaryPassword);
          void Promise.all([
            queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('users') }),
            queryClient.invalidateQueries({ queryKey: backOfficeKeys.dashboard }),
          ]);
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
