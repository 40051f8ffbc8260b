import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toMinor } from '../../../../domain/money';
import { useFormat } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import type { OfferedProduct } from '../api/offered-products';
import { productName } from '../model/step1';
import classes from './product-choice.module.css';

/**
 * The loan products offered to this borrower (docs/decisions/034), as native radio buttons in a fieldset:
 * each names the product and what decides its cost — the monthly rate, the periods and the most this
 * borrower may ask for. Shown only when there is a choice.
 */
export function ProductChoice({
  products,
  value,
  onChange,
  disabled,
}: {
  products: readonly OfferedProduct[];
  value: string;
  onChange: (product: OfferedProduct) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const language = currentLanguage();
  return (
    <fieldset className={classes.fieldset} disabled={disabled}>
      <legend className={classes.legend}>{t('application.products.legend')}</legend>
      <div className={classes.options}>
        {products.map((product) => (
          <label key={product.productId} className={classes.option}>
            <input
              type="radio"
              name="loan-product"
              value={product.productId}
              checked={product.productId === value}
              onChange={() => onChange(product)}
              className={classes.radio}
            />
            <span className={classes.text}>
              <span className={classes.name}>{productName(product, language)}</span>
              <span className={classes.details}>
                {t('application.products.option', {
                  rate: fmt.percent(product.monthlyRateBp / 10_000),
                  terms: product.termsMonths.join(', '),
                  max: fmt.money(toMinor(product.borrowerAmount.max), { omitZeroCents: true }),
                })}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** What decides this borrower's limit: a larger one for repaying loans on time, earned or still to earn. */
export function ProductLimitNote({ product }: { product: OfferedProduct }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { limit } = product;
  if (limit.repeatMaxAmount === null || limit.loansNeeded === null) return null;
  const amount = fmt.money(toMinor(limit.repeatMaxAmount), { omitZeroCents: true });
  return (
    <Text component="span" size="xs" display="block" mt={2}>
      {limit.basis === 'repeat'
        ? t('application.products.repeatEarned', { amount })
        : t('application.products.repeatLater', {
            amount,
            days: limit.repeatMaxDaysLate ?? 0,
            done: limit.qualifyingLoans,
            n: limit.loansNeeded,
          })}
    </Text>
  );
}
