import { describe, expect, it } from 'vitest';
import { borrowerEventKinds } from '../../../../domain/borrower-events';
import { createFormatters } from '../../../lib/format';
import i18n, { languages } from '../../../lib/i18n';
import { makeEvent } from '../test/fixtures';
import { historyText } from './history-text';

describe('every kind of borrower event in the catalogue', () => {
  it.each([...languages])(
    'has its own sentence in %s, never the "something changed" fallback',
    (language) => {
      const t = i18n.getFixedT(language);
      const format = createFormatters({ language, timeZone: 'Asia/Manila', na: '-' });
      const fallback = t('wallet.history.other');
      for (const kind of borrowerEventKinds) {
        const { text } = historyText(makeEvent(kind, { message: 'x' }), t, format);
        expect(text, kind).not.toBe(fallback);
        expect(text, kind).not.toMatch(/wallet\.history/);
      }
    },
  );
});
