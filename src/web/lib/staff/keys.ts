/**
 * TanStack Query keys of the back office. Everything starts with 'back-office' so logout and user switches
 * (which drop every non-session query) clear it, and so a decision can refresh exactly what it changed.
 */
export const backOfficeKeys = {
  all: ['back-office'] as const,
  /** Every page of one list: `[...list('pending'), params]` is one page of it. */
  list: (name: string) => ['back-office', 'list', name] as const,
  dashboard: ['back-office', 'dashboard'] as const,
  pendingCount: ['back-office', 'pending-count'] as const,
  /** Every profile read (View Profile, and the forms that need the withdrawn amount). */
  applications: ['back-office', 'application'] as const,
  application: (id: string) => ['back-office', 'application', id] as const,
  /** A payout's full account (an audited reveal; never part of a list). */
  payoutDestination: (id: string) => ['back-office', 'payout-destination', id] as const,
};
