import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { notifySuccess } from '../../../lib/notify';
import { useResetSecondFactor, userLabel } from '../api/users';
import type { UserModalProps } from './update-user-modal';

/**
 * Reset two-step sign-in (a lost phone): a required reason; the staff member's authenticator app, recovery
 * codes and passkeys are removed and their sessions end (docs/decisions/017).
 */
export function ResetSecondFactorModal({ user, opened, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const reset = useResetSecondFactor();
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('users.resetSecondFactor.title')}
      description={user ? t('users.resetSecondFactor.description', { username: userLabel(user) }) : undefined}
      confirmLabel={t('users.resetSecondFactor.confirm')}
      confirmColor="red.7"
      onConfirm={async (reason) => {
        if (!user) return;
        if (!(await reset.run({ id: user.id, reason }))) return;
        notifySuccess(t('users.resetSecondFactor.toast', { username: userLabel(user) }));
        onClose();
      }}
    />
  );
}
