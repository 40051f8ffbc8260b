import type { UserDto } from '../../domain/schemas/user';
import type { User } from '../db/schema';

export function toUserDto(user: User): UserDto {
  return {
    id: user.id,
    username: user.username,
    phone: user.phone,
    role: user.role,
    status: user.status,
    mustChangePassword: user.must_change_password,
    avatar: user.avatar,
    createdAt: user.created_at.toISOString(),
    lastLoginAt: user.last_login_at?.toISOString() ?? null,
  };
}
