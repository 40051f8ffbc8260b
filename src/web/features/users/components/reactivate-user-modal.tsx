import { useReactivateUser } from '../api/users';
import { ReasonThenPasswordModal } from './reason-then-password-modal';
import type { UserModalProps } from './update-user-modal';

/**
 * Reactivate: a required reason, then the temporary password once (the old password is not trusted
 * again; the user chooses a new one at the next login).
 */
export function ReactivateUserModal(props: UserModalProps) {
  const reactivate = useReactivateUser();
  return <ReasonThenPasswordModal {...props} texts="users.reactivate" run={reactivate.run} />;
}
