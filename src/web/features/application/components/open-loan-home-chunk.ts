import { loadWalletStrings } from '../../../lib/i18n';

/**
 * The open application's or running loan's home (open-loan-home.tsx, with the loan's card) is a chunk of its
 * own: a borrower's first visit to step 1, with no loan yet, does not download it (issue #35). app/start-data.ts
 * starts fetching it as soon as the borrower's application turns out open. It shows the loan in the wallet's
 * words, whose strings come with it.
 */
export const loadOpenLoanHome = () =>
  Promise.all([import('./open-loan-home'), loadWalletStrings()]).then(([module]) => module);
