import { useResetUserPassword } from '../api/users';
import { ReasonThenPasswordModal } from './reason-then-password-modal';
import type { UserModalProps } from './update-user-modal';

/** Reset Password: a reason, then the temporary password once (sessions end, change at next login). */
export function ResetUserPasswordModal(props: UserModalProps) {
  const reset = useResetUserPassword();
  return (
    <ReasonThenPasswordModal {...props} texts="users.resetPassword" confirmColor="red.7" run={reset.run} />
  );
}
