import { IconHome, type IconProps, IconUser, IconWallet } from '@tabler/icons-react';
import type { ComponentType } from 'react';

export type Icon = ComponentType<IconProps>;

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
