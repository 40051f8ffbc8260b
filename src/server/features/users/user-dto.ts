import type { User } from '../../db/schema';

export function toStaffUserDto(u: User) {
  return {
    id: u.id,
    username: u.username,
    phone: u.phone,
    role: u.role,
    status: u.status,
    mustChangePassword: u.must_change_password,
    createdAt: u.created_at.toISOString(),
    lastLoginAt: u.last_login_at?.toISOString() ?? null,
  };
}
