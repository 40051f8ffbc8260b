export const roles = ['borrower', 'officer', 'finance', 'admin'] as const;
export type Role = (typeof roles)[number];
export const staffRoles = ['officer', 'finance', 'admin'] as const satisfies readonly Role[];
export type StaffRole = (typeof staffRoles)[number];

/** Roles are case-insensitive on input and stored lower-case (SPEC §1). Unknown roles give null. */
export function parseRole(input: string): Role | null {
  const lower = input.trim().toLowerCase();
  return (roles as readonly string[]).includes(lower) ? (lower as Role) : null;
}

export function isStaff(role: Role): role is StaffRole {
  return role !== 'borrower';
}

export const userStatuses = ['active', 'deactivated'] as const;
export type UserStatus = (typeof userStatuses)[number];
