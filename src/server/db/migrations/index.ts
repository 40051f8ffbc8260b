import type { Migration } from 'kysely/migration';
import * as m001 from './001-accounts';
import * as m002 from './002-applications';
import * as m003 from './003-back-office';
import * as m004 from './004-list-indexes';
import * as m005 from './005-dashboard-indexes';
import * as m006 from './006-repayments';
import * as m007 from './007-unapplied-payments';
import * as m008 from './008-loan-positions';
import * as m009 from './009-reminders';
import * as m010 from './010-rate-limits';
import * as m012 from './012-password-reset-codes';
import * as m013 from './013-staff-second-factor';
import * as m014 from './014-signed-terms';
import * as m015 from './015-privacy';
import * as m016 from './016-complaints';
import * as m017 from './017-list-order-indexes';
import * as m018 from './018-session-change-notify';
import * as m019 from './019-quiet-session-prune';
import * as m020 from './020-answer-change-notify';
import * as m021 from './021-sessions-own-notify';
import * as m022 from './022-second-factor-attempts';
import * as m023 from './023-payment-reference-conflicts';
import * as m024 from './024-loan-terms';
import * as m025 from './025-loan-products';
import * as m026 from './026-fees-and-refunds';
import * as m027 from './027-reference-matching';
import * as m028 from './028-phone-one-form';
import * as m029 from './029-user-language';
import * as m030 from './030-borrower-messages';
import * as m031 from './031-credit-refund-message';
import * as m032 from './032-dashboard-figures';
import * as m033 from './033-queue-search-indexes';
import * as m034 from './034-answer-change-tables';
import * as m035 from './035-payment-search-indexes';
import * as m036 from './036-paid-loan-search-indexes';
import * as m037 from './037-loan-book-figure';
import * as m038 from './038-collected-month-figure';
import * as m039 from './039-portfolio-day-figures';
import * as m040 from './040-paid-fee-days';
import * as m041 from './041-search-covering-indexes';
import * as m042 from './042-borrower-names';
import * as m043 from './043-answers-named-by-borrower';
import * as m044 from './044-unapplied-queue-covering';
import * as m045 from './045-dashboard-today-quarters';
import * as m046 from './046-queue-positions';
import * as m047 from './047-payout-positions';
import * as m048 from './048-name-starts';
import * as m049 from './049-drop-name-trigram';

/** Every migration, in order. Names are permanent: never rename or edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '001-accounts': m001,
  '002-applications': m002,
  '003-back-office': m003,
  '004-list-indexes': m004,
  '005-dashboard-indexes': m005,
  '006-repayments': m006,
  '007-unapplied-payments': m007,
  '008-loan-positions': m008,
  '009-reminders': m009,
  '010-rate-limits': m010,
  '012-password-reset-codes': m012,
  '013-staff-second-factor': m013,
  '014-signed-terms': m014,
  '015-privacy': m015,
  '016-complaints': m016,
  '017-list-order-indexes': m017,
  '018-session-change-notify': m018,
  '019-quiet-session-prune': m019,
  '020-answer-change-notify': m020,
  '021-sessions-own-notify': m021,
  '022-second-factor-attempts': m022,
  '023-payment-reference-conflicts': m023,
  '024-loan-terms': m024,
  '025-loan-products': m025,
  '026-fees-and-refunds': m026,
  '027-reference-matching': m027,
  '028-phone-one-form': m028,
  '029-user-language': m029,
  '030-borrower-messages': m030,
  '031-credit-refund-message': m031,
  '032-dashboard-figures': m032,
  '033-queue-search-indexes': m033,
  '034-answer-change-tables': m034,
  '035-payment-search-indexes': m035,
  '036-paid-loan-search-indexes': m036,
  '037-loan-book-figure': m037,
  '038-collected-month-figure': m038,
  '039-portfolio-day-figures': m039,
  '040-paid-fee-days': m040,
  '041-search-covering-indexes': m041,
  '042-borrower-names': m042,
  '043-answers-named-by-borrower': m043,
  '044-unapplied-queue-covering': m044,
  '045-dashboard-today-quarters': m045,
  '046-queue-positions': m046,
  '047-payout-positions': m047,
  '048-name-starts': m048,
  '049-drop-name-trigram': m049,
};
