import {
  IconAlarm,
  IconCash,
  IconChecklist,
  IconClipboardList,
  IconHistory,
  IconHome,
  IconMessageReport,
  type IconProps,
  IconReceipt,
  IconReceiptOff,
  IconReportMoney,
  IconUser,
  IconUserOff,
  IconUsers,
  IconWallet,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { can, type Permission } from '../../domain/permissions';
import type { Role } from '../../domain/roles';

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
  /** The action (domain permission table, SPEC §1) that shows this item. */
  permission: Permission;
}

/** The back-office sidebar (SPEC §2.7). */
export const staffNavItems: readonly StaffNavItem[] = [
  { to: '/admin/home', label: 'staff.nav.home', icon: IconHome, permission: 'backOffice.view' },
  { to: '/admin/users', label: 'staff.nav.users', icon: IconUsers, permission: 'users.manage' },
  {
    to: '/admin/pending',
    label: 'staff.nav.pending',
    icon: IconClipboardList,
    permission: 'backOffice.view',
  },
  { to: '/admin/approved', label: 'staff.nav.approved', icon: IconChecklist, permission: 'backOffice.view' },
  {
    to: '/admin/servicing',
    label: 'staff.nav.servicing',
    icon: IconReportMoney,
    permission: 'backOffice.view',
  },
  {
    to: '/admin/disbursements',
    label: 'staff.nav.disbursements',
    icon: IconCash,
    permission: 'backOffice.view',
  },
  {
    to: '/admin/repayments',
    label: 'staffLoans.nav.repayments',
    icon: IconReceipt,
    permission: 'backOffice.view',
  },
  { to: '/admin/overdue', label: 'collections.nav.overdue', icon: IconAlarm, permission: 'backOffice.view' },
  {
    to: '/admin/unapplied',
    label: 'collections.nav.unapplied',
    icon: IconReceiptOff,
    permission: 'unappliedPayment.view',
  },
  {
    to: '/admin/account-closures',
    label: 'privacy.staff.nav',
    icon: IconUserOff,
    permission: 'accountClosures.view',
  },
  {
    to: '/admin/complaints',
    label: 'complaints.nav',
    icon: IconMessageReport,
    permission: 'complaint.handle',
  },
  { to: '/admin/audit', label: 'staff.nav.audit', icon: IconHistory, permission: 'audit.view' },
];

export function staffNavItemsFor(role: Role): StaffNavItem[] {
  return staffNavItems.filter((item) => can(role, item.permission));
}
