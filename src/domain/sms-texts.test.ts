import { describe, expect, it } from 'vitest';
import { type BorrowerMessage, borrowerMessageClasses, isOptionalMessage } from './borrower-messages';
import { type Language, languages } from './languages';
import {
  borrowerMessageSms,
  codeSms,
  complaintSms,
  reminderSms,
  SMS_REASON_MAX,
  signupNoticeSms,
  smsCatalogue,
  smsReasonGist,
} from './sms-texts';

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
const codeTexts = (language: Language) => ({
  signup: codeSms.signup(language, '123456'),
  passwordReset: codeSms.passwordReset(language, '123456'),
  passwordResetByStaff: codeSms.passwordResetByStaff(language, '123456'),
  withdrawal: codeSms.withdrawal(language, '123456', 25_000_000, 'Security Bank ****4567'),
  termsChange: codeSms.termsChange(language, '123456', 25_000_000, 36),
});

describe('the SMS catalogue', () => {
  it('has every key, with the same parameters, in en, fil, zh and km', () => {
    const keys = Object.keys(smsCatalogue.en).sort();
    for (const language of languages) {
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
    for (const language of languages) {
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
    for (const language of languages) {
      expect(complaintSms(language, 'reply', 'C-2026-0001')).toContain('C-2026-0001');
      expect(complaintSms(language, 'resolved', 'C-2026-0001')).toContain('C-2026-0001');
      expect(signupNoticeSms(language)).not.toMatch(/\d{6}/);
    }
  });
});

/** A reason of the longest length still quoted, GSM-7 only. */
const longestReason = 'The account number does not match the name on the account..'.slice(0, SMS_REASON_MAX);

/** Every change message with the longest likely values: ₱250,000.00, a seven-digit loan number. */
const changeMessages = (reason: string | null): BorrowerMessage[] => {
  const loanNumber = 'HL-26-1000000';
  const big = 25_000_000;
  return [
    { kind: 'application_approved', loanNumber, amountMinor: big },
    { kind: 'application_declined', loanNumber, reason },
    { kind: 'payout_paid', loanNumber, sentMinor: big, accountLast4: '4567' },
    { kind: 'payout_failed', loanNumber, amountMinor: big, reason },
    { kind: 'terms_proposed', loanNumber },
    { kind: 'payment_received', loanNumber, amountMinor: big, owedMinor: big },
    { kind: 'payment_reversed', loanNumber, amountMinor: big, reason },
    { kind: 'loan_closed', loanNumber, amountMinor: big, heldMinor: big },
    { kind: 'credit_refunded', loanNumber, amountMinor: big, reference: reason ?? 'GC-REFUND-77120' },
    { kind: 'complaint_reply', reference: 'C-2026-000123' },
    { kind: 'complaint_resolved', reference: 'C-2026-000123' },
  ];
};

describe('the messages of a change (issue #36)', () => {
  it('has a message for every kind, and only complaints and declines may be turned off', () => {
    expect(
      changeMessages(null)
        .map((m) => m.kind)
        .sort(),
    ).toEqual(Object.keys(borrowerMessageClasses).sort());
    const optional = Object.keys(borrowerMessageClasses).filter((k) =>
      isOptionalMessage(k as keyof typeof borrowerMessageClasses),
    );
    expect(optional.sort()).toEqual(['application_declined', 'complaint_reply', 'complaint_resolved']);
  });

  it('sends each English and Filipino one as GSM-7 in at most two segments', () => {
    for (const language of ['en', 'fil'] as const) {
      for (const message of [...changeMessages(longestReason), ...changeMessages(null)]) {
        const text = borrowerMessageSms(language, message);
        const septets = gsm7Septets(text);
        expect(septets, `${language} ${message.kind} is not GSM-7: ${text}`).not.toBeNull();
        // Two parts of a long message carry 153 septets each.
        expect(septets, `${language} ${message.kind} (${septets}): ${text}`).toBeLessThanOrEqual(306);
        expect(text, `${language} ${message.kind}`).not.toMatch(/https?:|www\./);
      }
    }
  });

  it('sends each Chinese and Khmer one in at most three UCS-2 segments', () => {
    const counts: string[] = [];
    for (const language of ['zh', 'km'] as const) {
      for (const message of [...changeMessages(longestReason), ...changeMessages(null)]) {
        const text = borrowerMessageSms(language, message);
        counts.push(`${language} ${message.kind}: ${text.length} UTF-16 units, ${ucs2Segments(text)}`);
        expect(ucs2Segments(text), `${language} ${message.kind}: ${text}`).toBeLessThanOrEqual(3);
      }
    }
    console.info(counts.join('\n'));
  });

  it('states the facts in the language: net amount, last four digits, what is still owed, money held', () => {
    expect(
      borrowerMessageSms('en', {
        kind: 'payout_paid',
        loanNumber: 'HL-26-000042',
        sentMinor: 1_930_000,
        accountLast4: '4567',
      }),
    ).toBe('Hiram: we sent PHP 19,300.00 for loan HL-26-000042 to your account ending 4567.');
    expect(
      borrowerMessageSms('en', {
        kind: 'payment_received',
        loanNumber: 'HL-26-000042',
        amountMinor: 500_000,
        owedMinor: 1_234_567,
      }),
    ).toBe('Hiram: we received PHP 5,000.00 for loan HL-26-000042. Still owed: PHP 12,345.67.');
    const closed = { kind: 'loan_closed', loanNumber: 'HL-26-000042', amountMinor: 500_000 } as const;
    expect(borrowerMessageSms('en', { ...closed, heldMinor: 0 })).not.toContain('refund');
    expect(borrowerMessageSms('en', { ...closed, heldMinor: 12_000 })).toContain(
      'We hold PHP 120.00 paid above',
    );
    expect(borrowerMessageSms('km', { ...closed, heldMinor: 12_000 })).toContain('120.00₱');
    expect(borrowerMessageSms('zh', { ...closed, heldMinor: 0 })).toContain('5,000.00');
    expect(borrowerMessageSms('fil', { kind: 'terms_proposed', loanNumber: 'HL-26-000042' })).toContain(
      'code',
    );
  });

  it('quotes a short reason and points to the app for a long or non-GSM-7 one', () => {
    const declined = (reason: string) =>
      borrowerMessageSms('en', { kind: 'application_declined', loanNumber: 'HL-26-000042', reason });
    expect(declined('  Income  too low ')).toBe(
      'Hiram: your application HL-26-000042 was declined. Reason: Income too low',
    );
    expect(declined('x'.repeat(SMS_REASON_MAX + 1))).toContain('The reason is in the app.');
    expect(declined('Fee of ₱500 unpaid')).toContain('The reason is in the app.');
    expect(smsReasonGist('zh', 'Fee of ₱500 unpaid')).toBe('Fee of ₱500 unpaid');
    expect(smsReasonGist('km', '   ')).toBeNull();
  });
});
