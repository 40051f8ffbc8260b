/**
 * The open application's or running loan's home (open-loan-home.tsx, with the loan's card) is a chunk of its
 * own: a borrower's first visit to step 1, with no loan yet, does not download it (issue #35). app/start-data.ts
 * starts fetching it as soon as the borrower's application turns out open.
 */
export const loadOpenLoanHome = () => import('./open-loan-home');
