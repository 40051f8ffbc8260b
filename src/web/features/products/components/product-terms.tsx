import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toMinor } from '../../../../domain/money';
import type { ProductVersionDto } from '../../../../domain/schemas/products';
import { useFormat } from '../../../lib/format';

type Terms = ProductVersionDto['terms'];

/** Every term of a version, as a definition list an officer can read a borrower. */
export function ProductTermsList({ terms }: { terms: Terms }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const pesos = (value: number) => fmt.money(toMinor(value), { omitZeroCents: true });
  const rate = (bp: number) => fmt.percent(bp / 10_000);
  const range = (rule: Terms['borrowerAmount']) =>
    t('products.terms.amountRange', { min: pesos(rule.min), max: pesos(rule.max), step: pesos(rule.step) });
  const { fees, eligibility } = terms;
  const rows: [string, string, string][] = [
    ['borrowerAmount', t('products.terms.borrowerAmount'), range(terms.borrowerAmount)],
    ['staffAmount', t('products.terms.staffAmount'), range(terms.staffAmount)],
    [
      'periods',
      t('products.terms.periods'),
      t('products.terms.periodsValue', {
        terms: terms.termsMonths.join(', '),
        default: terms.defaultTermMonths,
      }),
    ],
    ['monthlyRate', t('products.terms.monthlyRate'), rate(terms.monthlyRateBp)],
    [
      'fees',
      t('products.terms.fees'),
      fees.flatMinor === 0 && fees.percentBp === 0
        ? t('products.terms.noFees')
        : t('products.terms.feesValue', { flat: fmt.money(fees.flatMinor), percent: rate(fees.percentBp) }),
    ],
    [
      'lateCharge',
      t('products.terms.lateCharge'),
      terms.lateChargeMonthlyBp === 0
        ? t('products.terms.noLateCharge', { days: terms.graceDays })
        : t('products.terms.lateChargeValue', {
            rate: rate(terms.lateChargeMonthlyBp),
            days: terms.graceDays,
          }),
    ],
    [
      'fourEyes',
      t('products.terms.fourEyes'),
      fmt.money(terms.fourEyesThresholdMinor, { omitZeroCents: true }),
    ],
    ['firstLoanMax', t('products.terms.firstLoanMax'), pesos(eligibility.firstLoanMaxAmount)],
    [
      'repeat',
      t('products.terms.repeat'),
      eligibility.repeat
        ? t('products.terms.repeatValue', {
            amount: pesos(eligibility.repeat.maxAmount),
            n: eligibility.repeat.afterLoans,
            days: eligibility.repeat.maxDaysLate,
          })
        : t('products.terms.noRepeat'),
    ],
  ];
  return (
    <Stack component="dl" gap={6} m={0}>
      {rows.map(([key, label, value]) => (
        <div key={key} data-term={key}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" fw={600} m={0}>
            {value}
          </Text>
        </div>
      ))}
    </Stack>
  );
}
