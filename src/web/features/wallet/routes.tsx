import type { RouteObject } from 'react-router';

/** Borrower pages beside /loan (SPEC §2.5, §2.6): wallet and account. */
export const walletRoutes: RouteObject[] = [];
