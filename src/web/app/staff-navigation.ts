import {
  IconAlarm,
  IconCash,
  IconChecklist,
  IconClipboardList,
  IconHistory,
  IconHome,
  IconMessageReport,
  IconPackage,
  IconReceipt,
  IconReceiptOff,
  IconReportMoney,
  IconUserOff,
  IconUsers,
} from '@tabler/icons-react';
import { can, type Permission } from '../../domain/permissions';
import type { Role } from '../../domain/roles';
import type { Icon } from './navigation';

// Apart from the borrower's navigation.ts so that its icons load only with the back office.
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
  { to: '/admin/products', label: 'products.nav', icon: IconPackage, permission: 'product.view' },
  { to: '/admin/audit', label: 'staff.nav.audit', icon: IconHistory, permission: 'audit.view' },
];

export function staffNavItemsFor(role: Role): StaffNavItem[] {
  return staffNavItems.filter((item) => can(role, item.permission));
}
