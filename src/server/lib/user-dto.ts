import type { UserDto } from '../../domain/schemas/user';
import type { User } from '../db/schema';

/**
 * A borrower who has not agreed to the privacy notice in force (issue #14): new versions ask again. Staff
 * are not asked: they process data for the lender, they are not its data subjects here.
 */
export function privacyConsentPending(
  user: Pick<User, 'role' | 'privacy_notice_version'>,
  noticeVersion: string,
) {
  return user.role === 'borrower' && user.privacy_notice_version !== noticeVersion;
}

export function toUserDto(user: User, noticeVersion: string): UserDto {
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
    privacyConsentRequired: privacyConsentPending(user, noticeVersion),
    language: user.language,
  };
}
