import { describe, expect, it } from 'vitest';
import { defaultPaymentChannels } from '../../domain/schemas/settings';
import i18n from './i18n';
import { channelLabel } from './payment-channels';

describe('channelLabel', () => {
  it('writes a channel the app ships in the reader’s language, in every shipped language', () => {
    const bank = { code: 'bank_transfer', name: 'Bank transfer' };
    expect(channelLabel(bank, i18n.getFixedT('en'))).toBe('Bank transfer');
    expect(channelLabel(bank, i18n.getFixedT('zh'))).toBe('银行转账');
    expect(channelLabel({ code: 'cash', name: 'Cash at the office' }, i18n.getFixedT('fil'))).toBe(
      'Cash sa opisina',
    );
    for (const lang of ['en', 'zh', 'km', 'fil'])
      for (const channel of defaultPaymentChannels)
        expect(i18n.exists(`channels.${channel.code}`, { lng: lang }), `${lang} ${channel.code}`).toBe(true);
  });

  it('shows a name the lender gave as the lender wrote it', () => {
    const zh = i18n.getFixedT('zh');
    expect(channelLabel({ code: 'bank_transfer', name: 'BDO savings 0012-3456' }, zh)).toBe(
      'BDO savings 0012-3456',
    );
    expect(channelLabel({ code: 'palawan', name: 'Palawan Express' }, zh)).toBe('Palawan Express');
  });
});
