import { useTranslation } from 'react-i18next';
import type { Disclosure } from '../../../../domain/loan';
import { currentLanguage } from '../../../lib/i18n';
import { money, percent } from '../model/format';
import classes from './loan-figures.module.css';

/**
 * Every figure SPEC principle 2 asks for, from one disclosure: the step-1 summary (domain math) and the
 * step-2 statement (the server's quote) use this same list.
 */
export function LoanFigures({ disclosure }: { disclosure: Disclosure }) {
  const { t } = useTranslation();
  const locale = currentLanguage();
  const rows: [key: string, value: string, strong?: boolean][] = [
    ['amount', money(disclosure.amountMinor, locale)],
    ['term', t('application.termMonths', { n: disclosure.termMonths })],
    ['monthlyRate', percent(disclosure.monthlyRate, locale)],
    ['apr', percent(disclosure.apr, locale)],
    ['effectiveRate', percent(disclosure.effectiveAnnualRate, locale)],
    ['monthlyPayment', money(disclosure.monthlyPaymentMinor, locale), true],
    ['totalRepayable', money(disclosure.totalRepayableMinor, locale)],
    ['totalInterest', money(disclosure.totalInterestMinor, locale)],
    ['fees', money(disclosure.fees.totalMinor, locale)],
  ];
  return (
    <dl className={classes.list}>
      {rows.map(([key, value, strong]) => (
        <div key={key} className={classes.row} data-strong={strong || undefined} data-figure={key}>
          <dt className={classes.label}>{t(`application.summary.${key}`)}</dt>
          <dd className={classes.value}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
