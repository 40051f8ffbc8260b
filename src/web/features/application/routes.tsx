import type { RouteObject } from 'react-router';

/** Children of /loan (SPEC §2.4): application (step 1) and info (step 2). */
export const applicationRoutes: RouteObject[] = [];
