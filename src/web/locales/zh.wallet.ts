import { mergeLocale } from './merge-locale';

/**
 * The zh strings of the borrower's wallet, payments, account and complaints: a chunk loaded only with the
 * pages that show them (the wallet, a receipt, the account page, an open loan's home) and with the back
 * office (`loadWalletStrings`, src/web/lib/i18n.ts), so the sign-in pages and step 1 do not download them.
 */
export default mergeLocale(
  {},
  import.meta.glob<Record<string, unknown>>('./{account,complaints,paying,wallet}/zh.json', {
    eager: true,
    import: 'default',
  }),
);
