export const roles = ['borrower', 'officer', 'finance', 'admin'] as const;
export type Role = (typeof roles)[number];
export const staffRoles = ['officer', 'finance', 'admin'] as const satisfies readonly Role[];
export type StaffRole = (typeof staffRoles)[number];

export function isStaff(role: Role): role is StaffRole {
  return role !== 'borrower';
}

export const userStatuses = ['active', 'deactivated'] as const;
export type UserStatus = (typeof userStatuses)[number];
