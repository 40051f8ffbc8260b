import { describe, expect, it } from 'vitest';
import { AppError, formatMessage, moneyParamsAsText } from './errors';

describe('error params', () => {
  it('shows a <name>Minor param as money in {<name>}, keeping the number for readers', () => {
    expect(moneyParamsAsText({ amountMinor: 8_550_000, n: 3 }, (minor) => `${minor / 100}!`)).toEqual({
      amountMinor: 8_550_000,
      amount: '85500!',
      n: 3,
    });
  });

  it('fills the English message in en-PH money', () => {
    expect(formatMessage('AMOUNT_BELOW_WITHDRAWN', { amountMinor: 8_550_050 })).toBe(
      'The amount cannot be less than what has already been withdrawn (₱85,500.50).',
    );
    const error = new AppError('AMOUNT_BELOW_WITHDRAWN', {
      fields: { amount: 'AMOUNT_BELOW_WITHDRAWN' },
      params: { amountMinor: 100 },
    });
    expect(error.toBody().error).toMatchObject({
      message: 'The amount cannot be less than what has already been withdrawn (₱1.00).',
      params: { amountMinor: 100 },
      fields: {
        amount: {
          code: 'AMOUNT_BELOW_WITHDRAWN',
          message: 'The amount cannot be less than what has already been withdrawn (₱1.00).',
        },
      },
    });
  });
});
