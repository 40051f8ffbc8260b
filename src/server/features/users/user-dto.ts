import type { User } from '../../db/schema';

/** `lockedUntil`: the end of a running login lockout (issue #15), if any. */
export function toStaffUserDto(u: User, lockedUntil: Date | null = null) {
  return {
    id: u.id,
    username: u.username,
    phone: u.phone,
    role: u.role,
    status: u.status,
    mustChangePassword: u.must_change_password,
    createdAt: u.created_at.toISOString(),
    lastLoginAt: u.last_login_at?.toISOString() ?? null,
    lockedUntil: lockedUntil ? new Date(lockedUntil).toISOString() : null,
  };
}
