import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { TemporaryPasswordModal } from '../../../components/staff/temporary-password-modal';
import { notifySuccess } from '../../../lib/notify';
import { userLabel } from '../api/users';
import type { UserModalProps } from './update-user-modal';

interface ReasonThenPasswordModalProps extends UserModalProps {
  /** Locale prefix with title, description, confirm and toast (e.g. 'users.resetPassword'). */
  texts: string;
  confirmColor?: string;
  run: (input: { id: string; reason: string }) => Promise<{ temporaryPassword: string } | null>;
}

/** A required reason, then the temporary password shown once (reset password, reactivate). */
export function ReasonThenPasswordModal({
  user,
  opened,
  onClose,
  texts,
  confirmColor,
  run,
}: ReasonThenPasswordModalProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <>
      <ReasonModal
        opened={opened}
        onClose={onClose}
        title={t(`${texts}.title`)}
        description={user ? t(`${texts}.description`, { username: userLabel(user) }) : undefined}
        confirmLabel={t(`${texts}.confirm`)}
        {...(confirmColor ? { confirmColor } : {})}
        onConfirm={async (reason) => {
          if (!user) return;
          const result = await run({ id: user.id, reason });
          if (!result) return;
          notifySuccess(t(`${texts}.toast`, { username: userLabel(user) }));
          setPassword(result.temporaryPassword);
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
