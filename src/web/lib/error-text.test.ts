import { afterEach, describe, expect, it } from 'vitest';
import { fieldKeys, fieldNames, fieldNamingCodes } from '../../domain/field-names';
import { fieldErrorText, translateError } from './error-text';
import i18n, { languages } from './i18n';

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

describe('an error that names a field (issue #36)', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it.each(languages)('names every field in %s, never by its English label or its key', async (language) => {
    await i18n.changeLanguage(language);
    for (const fieldKey of fieldKeys) {
      const name = fieldNames[language][fieldKey];
      const english = fieldNames.en[fieldKey];
      for (const code of fieldNamingCodes) {
        // As the server sends it: the key, and an English message for API clients.
        const shown = translateError(i18n.t, {
          code,
          params: { fieldKey },
          message: `${english} is required`,
        });
        const where = { language, fieldKey, code, shown };
        expect(shown, JSON.stringify(where)).toContain(name);
        expect(shown, JSON.stringify(where)).not.toMatch(/[{}]/);
        if (!name.includes(english)) expect(shown, JSON.stringify(where)).not.toContain(english);
        if (!name.includes(fieldKey)) expect(shown, JSON.stringify(where)).not.toContain(fieldKey);
        // The form's own checks name it the same way.
        expect(fieldErrorText(i18n.t, fieldKey, code)).toBe(shown);
      }
    }
  });

  it('names the field by its key also when an old server sent an English label', async () => {
    await i18n.changeLanguage('zh');
    expect(
      translateError(i18n.t, { code: 'FIELD_REQUIRED', params: { fieldKey: 'message', field: 'Message' } }),
    ).toBe('请填写留言');
  });
});
