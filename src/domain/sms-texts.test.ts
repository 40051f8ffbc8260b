import { describe, expect, it } from 'vitest';
import { type UserLanguage, userLanguages } from './languages';
import { codeSms, complaintSms, reminderSms, signupNoticeSms, smsCatalogue } from './sms-texts';

/** The GSM 03.38 basic alphabet (one septet each) and its extension table (two septets: escape + char). */
const gsmBasic =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const gsmExtension = '^{}\\[~]|€\f';

/** Septets the text takes in GSM-7, or null when a character is not in the GSM-7 alphabet. */
function gsm7Septets(text: string): number | null {
  let septets = 0;
  for (const char of text) {
    if (gsmBasic.includes(char)) septets += 1;
    else if (gsmExtension.includes(char)) septets += 2;
    else return null;
  }
  return septets;
}

/** UCS-2 segments: 70 UTF-16 units in one message, 67 a part once it is split. */
function ucs2Segments(text: string): number {
  return text.length <= 70 ? 1 : Math.ceil(text.length / 67);
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Every code SMS with the longest likely values: a 6-digit code, ₱250,000.00, a named bank, 36 months. */
const codeTexts = (language: UserLanguage) => ({
  signup: codeSms.signup(language, '123456'),
  passwordReset: codeSms.passwordReset(language, '123456'),
  passwordResetByStaff: codeSms.passwordResetByStaff(language, '123456'),
  withdrawal: codeSms.withdrawal(language, '123456', 25_000_000, 'Security Bank ****4567'),
  termsChange: codeSms.termsChange(language, '123456', 25_000_000, 36),
});

describe('the SMS catalogue', () => {
  it('has every key, with the same parameters, in en, fil, zh and km', () => {
    const keys = Object.keys(smsCatalogue.en).sort();
    for (const language of userLanguages) {
      expect(Object.keys(smsCatalogue[language]).sort(), language).toEqual(keys);
      for (const key of keys) {
        const text = smsCatalogue[language][key as keyof typeof smsCatalogue.en];
        expect(text.trim(), `${language}.${key}`).not.toBe('');
        expect(placeholders(text), `${language}.${key}`).toEqual(
          placeholders(smsCatalogue.en[key as keyof typeof smsCatalogue.en]),
        );
      }
    }
  });

  it('says the safety line, in its language, in every code SMS', () => {
    for (const language of userLanguages) {
      for (const [name, text] of Object.entries(codeTexts(language))) {
        expect(text, `${language} ${name}`).toContain(smsCatalogue[language].safety);
        expect(text, `${language} ${name}`).toContain('123456');
      }
    }
    expect(codeSms.signup('en', '123456')).toContain(
      'We will never ask you for this code or for a fee to release your loan.',
    );
  });

  it('fits each English and Filipino code SMS in one GSM-7 segment', () => {
    for (const language of ['en', 'fil'] as const) {
      for (const [name, text] of Object.entries(codeTexts(language))) {
        const septets = gsm7Septets(text);
        expect(septets, `${language} ${name} is not GSM-7: ${text}`).not.toBeNull();
        expect(septets, `${language} ${name} (${septets}): ${text}`).toBeLessThanOrEqual(160);
      }
    }
  });

  it('sends each Chinese and Khmer code SMS in at most three UCS-2 segments', () => {
    const counts: string[] = [];
    for (const language of ['zh', 'km'] as const) {
      for (const [name, text] of Object.entries(codeTexts(language))) {
        const segments = ucs2Segments(text);
        counts.push(`${language} ${name}: ${text.length} UTF-16 units, ${segments} UCS-2 segment(s)`);
        expect(segments, `${language} ${name}: ${text}`).toBeLessThanOrEqual(3);
      }
    }
    console.info(counts.join('\n'));
  });

  it('writes money and dates as the screens do, in the language', () => {
    const facts = {
      kind: 'overdue' as const,
      amountMinor: 945_596,
      date: '2026-11-23',
      daysPastDue: 4,
      loanNumber: 'L-000042',
      channels: ['GCash 0917 555 0101'],
      supportEmail: 'help@lender.example',
    };
    expect(reminderSms('en', facts)).toBe(
      'Hiram reminder: ₱9,455.96 on loan L-000042 is past due, the oldest part since Nov 23, 2026 (4 days). ' +
        'Pay with reference L-000042 to GCash 0917 555 0101. If you have already paid, thank you and please ' +
        'ignore this. Questions or trouble paying: help@lender.example.',
    );
    expect(reminderSms('en', { ...facts, daysPastDue: 1 })).toContain('(1 day)');
    expect(reminderSms('km', facts)).toContain('23 វិច្ឆិកា 2026');
    expect(reminderSms('km', facts)).toContain('9,455.96₱');
    expect(reminderSms('km', facts)).toContain('4 ថ្ងៃ');
    expect(reminderSms('zh', facts)).toContain('2026年11月23日');
    expect(reminderSms('fil', facts)).toContain('Nob 23, 2026');
    expect(reminderSms('fil', { ...facts, channels: [] })).toContain('sumulat sa help@lender.example');
    expect(codeSms.withdrawal('en', '123456', 2_500_000, 'BDO ****4567')).toContain('PHP 25,000.00');
    expect(codeSms.withdrawal('km', '123456', 2_500_000, 'BDO ****4567')).toContain('25,000.00₱');
    expect(codeSms.termsChange('en', '123456', 2_500_000, 1)).toContain('(PHP 25,000.00, 1 month)');
  });

  it('keeps the complaint and sign-up notice texts free of any code', () => {
    for (const language of userLanguages) {
      expect(complaintSms(language, 'reply', 'C-2026-0001')).toContain('C-2026-0001');
      expect(complaintSms(language, 'resolved', 'C-2026-0001')).toContain('C-2026-0001');
      expect(signupNoticeSms(language)).not.toMatch(/\d{6}/);
    }
  });
});
