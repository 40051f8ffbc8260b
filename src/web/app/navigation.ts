import {
  IconCash,
  IconChecklist,
  IconClipboardList,
  IconHistory,
  IconHome,
  type IconProps,
  IconReportMoney,
  IconUser,
  IconUsers,
  IconWallet,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { type StaffRole, staffRoles } from '../../domain/roles';

type Icon = ComponentType<IconProps>;

export interface BorrowerNavItem {
  to: string;
  /** Highlighted while the path starts with this. */
  match: string;
  /** Locale key. */
  label: string;
  icon: Icon;
}

/** The borrower's navigation (SPEC §2.1): a bottom tab bar on phones, a sidebar from 900 px. */
export const borrowerNavItems: readonly BorrowerNavItem[] = [
  { to: '/loan/application', match: '/loan', label: 'borrower.nav.home', icon: IconHome },
  { to: '/wallet', match: '/wallet', label: 'borrower.nav.wallet', icon: IconWallet },
  { to: '/account', match: '/account', label: 'borrower.nav.account', icon: IconUser },
];

/** Borrower header title by path (SPEC §2.1). */
const borrowerTitles: readonly { match: string; title: string }[] = [
  { match: '/loan', title: 'borrower.title.application' },
  { match: '/wallet', title: 'borrower.title.wallet' },
  { match: '/account', title: 'borrower.title.account' },
];

export function isPathUnder(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

export function borrowerTitleKey(pathname: string): string {
  return (borrowerTitles.find((item) => isPathUnder(pathname, item.match)) ?? borrowerTitles[0]!).title;
}

export interface StaffNavItem {
  to: string;
  /** Locale key. */
  label: string;
  icon: Icon;
  /** Staff roles that see this item (SPEC §1, §2.7). */
  roles: readonly StaffRole[];
}

const allStaff = staffRoles;

/** The back-office sidebar (SPEC §2.7). */
export const staffNavItems: readonly StaffNavItem[] = [
  { to: '/admin/home', label: 'staff.nav.home', icon: IconHome, roles: allStaff },
  { to: '/admin/users', label: 'staff.nav.users', icon: IconUsers, roles: ['admin'] },
  { to: '/admin/pending', label: 'staff.nav.pending', icon: IconClipboardList, roles: allStaff },
  { to: '/admin/approved', label: 'staff.nav.approved', icon: IconChecklist, roles: allStaff },
  { to: '/admin/servicing', label: 'staff.nav.servicing', icon: IconReportMoney, roles: allStaff },
  { to: '/admin/disbursements', label: 'staff.nav.disbursements', icon: IconCash, roles: allStaff },
  { to: '/admin/audit', label: 'staff.nav.audit', icon: IconHistory, roles: ['admin'] },
];

export function staffNavItemsFor(role: StaffRole): StaffNavItem[] {
  return staffNavItems.filter((item) => item.roles.includes(role));
}
