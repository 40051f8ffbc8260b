import { afterEach, describe, expect, it } from 'vitest';
import { translateError } from './error-text';
import i18n from './i18n';

describe('translateError', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('writes a date the API sends as YYYY-MM-DD the way the reader’s language writes dates', async () => {
    const ended = { code: 'WITHDRAWAL_PERIOD_ENDED', params: { date: '2026-09-15' } };
    expect(translateError(i18n.t, ended)).toBe(
      'Withdrawals have ended: the last payment of this loan was due on Sep 15, 2026.',
    );
    await i18n.changeLanguage('zh');
    expect(translateError(i18n.t, ended)).toBe('提款已结束：该贷款的最后一期还款已于 2026年9月15日 到期。');
    await i18n.changeLanguage('km');
    expect(translateError(i18n.t, ended)).toContain('15 កញ្ញា 2026');
    expect(translateError(i18n.t, ended)).not.toContain('2026-09-15');
  });

  it('writes money and a date together, and leaves a date that is not one as sent', () => {
    expect(
      translateError(i18n.t, {
        code: 'REFUND_EXCEEDS_CREDIT',
        params: { date: '2026-11-20', creditMinor: 1_234_550 },
      }),
    ).toBe('This is more than the ₱12,345.50 held for the borrower on Nov 20, 2026.');
    expect(
      translateError(i18n.t, { code: 'WITHDRAWAL_PERIOD_ENDED', params: { date: 'mid-September' } }),
    ).toContain('due on mid-September.');
  });

  it('falls back to the server’s message, then to the generic failure', () => {
    expect(translateError(i18n.t, { code: 'SOMETHING_NEW', message: 'Server says no' })).toBe(
      'Server says no',
    );
    expect(translateError(i18n.t, { code: 'SOMETHING_NEW' })).toBe(i18n.t('errors.INTERNAL'));
  });
});
