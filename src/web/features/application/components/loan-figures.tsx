import { useTranslation } from 'react-i18next';
import type { Disclosure } from '../../../../domain/loan/disclosure';
import { useFormat } from '../../../lib/format';
import classes from './loan-figures.module.css';

/**
 * Every figure SPEC principle 2 asks for, from one disclosure: the step-1 summary (domain math) and the
 * step-2 statement (the server's quote) use this same list.
 */
export function LoanFigures({ disclosure }: { disclosure: Disclosure }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const rows: [key: string, value: string, strong?: boolean][] = [
    ['amount', fmt.money(disclosure.amountMinor)],
    ['term', t('application.termMonths', { n: disclosure.termMonths })],
    ['monthlyRate', fmt.percent(disclosure.monthlyRate)],
    ['apr', fmt.percent(disclosure.apr)],
    ['effectiveRate', fmt.percent(disclosure.effectiveAnnualRate)],
    ['monthlyPayment', fmt.money(disclosure.monthlyPaymentMinor), true],
    ['totalRepayable', fmt.money(disclosure.totalRepayableMinor)],
    ['totalInterest', fmt.money(disclosure.totalInterestMinor)],
    ['fees', fmt.money(disclosure.fees.totalMinor)],
    ['netProceeds', fmt.money(disclosure.netProceedsMinor)],
    [
      'lateCharge',
      disclosure.lateCharge.monthlyBp > 0
        ? t('application.summary.lateChargeValue', {
            rate: fmt.percent(disclosure.lateCharge.monthlyRate),
            days: fmt.number(disclosure.lateCharge.graceDays),
          })
        : t('application.summary.noLateChargeValue', { days: fmt.number(disclosure.lateCharge.graceDays) }),
    ],
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
