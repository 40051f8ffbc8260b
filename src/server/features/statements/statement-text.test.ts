import { describe, expect, it } from 'vitest';
import {
  buildStatementOfAccount,
  deriveLoanPosition,
  type LoanRecords,
} from '../../../domain/loan/repayments';
import { fill, paidInFullOn, type StatementInput, statementDocument, statementTexts } from './statement-text';

const records: LoanRecords = {
  termMonths: 12,
  monthlyRateBp: 200,
  feesMinor: 0,
  disbursements: [{ amountMinor: 10_000_000, paidOn: '2025-01-31' }],
  repayments: [
    { id: 'a', amountMinor: 945_596, receivedOn: '2025-02-28' },
    { id: 'b', amountMinor: 945_596, receivedOn: '2025-03-31', reversedOn: '2025-04-02' },
  ],
  rules: { graceDays: 3, lateChargeMonthlyBp: 500 },
};

function input(status: StatementInput['loan']['status'], r: LoanRecords, asOf: string): StatementInput {
  return {
    lenderName: 'Hiram',
    supportEmail: 'help@lender.example',
    loan: {
      loanNumber: 'HL-26-000042',
      borrowerName: 'Maria Dela Cruz',
      status,
      approvedMinor: 12_000_000,
      termMonths: 12,
      monthlyRateBp: 200,
    },
    statement: buildStatementOfAccount(r, asOf),
    payoffMinor: deriveLoanPosition(r, asOf).payoffMinor,
    dueNowMinor: deriveLoanPosition(r, asOf).amountDueNowMinor,
    references: new Map([
      ['a', 'GC-1001'],
      ['b', 'GC-1002'],
      ['c', 'GC-2000'],
    ]),
  };
}

/** The same loan, paid off on 2025-04-20 by a payment of exactly the payoff. */
function paidOff(): LoanRecords {
  const payoff = deriveLoanPosition(records, '2025-04-20').payoffMinor;
  return {
    ...records,
    repayments: [...records.repayments, { id: 'c', amountMinor: payoff, receivedOn: '2025-04-20' }],
  };
}

describe('statementDocument', () => {
  it('writes an open loan in English: facts, terms, one row per line with debit or credit, totals, payoff', () => {
    const doc = statementDocument(input('approved', records, '2025-04-10'), 'en');
    expect(doc.facts).toEqual([
      { label: 'Statement date', value: 'Apr 10, 2025' },
      { label: 'Borrower', value: 'Maria Dela Cruz' },
      { label: 'Loan number', value: 'HL-26-000042' },
      { label: 'Status', value: 'Active, in repayment' },
    ]);
    expect(doc.paidInFull).toBeNull();
    expect(doc.terms.map((t) => t.value)).toEqual([
      '₱120,000.00',
      '₱100,000.00',
      '12 months',
      '2%',
      'Jan 31, 2025',
    ]);
    expect(doc.rows[0]).toEqual({
      date: 'Jan 31, 2025',
      description: 'Loan paid out',
      detail: null,
      debit: '₱100,000.00',
      credit: '',
      balance: '₱100,000.00',
    });
    expect(doc.rows[1]).toMatchObject({ description: 'Interest, instalment 1', debit: '₱2,000.00' });
    // A repayment says where it went; a reversed one only its reference.
    expect(doc.rows[2]).toMatchObject({
      description: 'Payment received',
      detail: 'ref. GC-1001\u00a0· interest ₱2,000.00\u00a0· principal ₱7,455.96',
      debit: '',
      credit: '₱9,455.96',
      balance: '₱92,544.04',
    });
    expect(doc.rows[4]).toMatchObject({ detail: 'ref. GC-1002', credit: '₱9,455.96' });
    expect(doc.rows[5]).toMatchObject({ description: 'Payment reversed', debit: '₱9,455.96' });
    expect(doc.rows.at(-1)).toMatchObject({ description: 'Interest accrued to date, instalment 3' });
    const statement = buildStatementOfAccount(records, '2025-04-10');
    expect(doc.totals.at(-1)).toEqual({
      label: 'Balance on Apr 10, 2025',
      value: `₱${(statement.closingBalanceMinor / 100).toLocaleString('en-PH', { minimumFractionDigits: 2 })}`,
    });
    // Instalment 2 (Mar 31) is unpaid again after the reversal, with its late charge: the one figure that
    // brings the loan up to date, as the wallet and the reminders say it (issue #32).
    const position = deriveLoanPosition(records, '2025-04-10');
    expect(position.amountDueNowMinor).toBeGreaterThan(945_596);
    expect(doc.dueNow).toEqual({
      label:
        'Amount that brings the loan up to date today (Apr 10, 2025): every instalment due and late charges',
      value: `₱${(position.amountDueNowMinor / 100).toLocaleString('en-PH', { minimumFractionDigits: 2 })}`,
    });
    expect(doc.payoff?.label).toBe('Amount that pays off the loan today (Apr 10, 2025)');
    expect(doc.payoff?.value).toBe(doc.totals.at(-1)?.value);
    expect(doc.footer).toBe(
      'Questions about this statement? Write to help@lender.example and quote your loan number.',
    );
    expect(doc.pageLabel(1, 2)).toBe('Page 1 of 2');
  });

  it('says a closed loan was paid in full on the day the clearing payment was received, and shows no payoff', () => {
    const doc = statementDocument(input('closed', paidOff(), '2025-04-23'), 'en');
    expect(doc.paidInFull).toEqual({
      headline: 'Paid in full on Apr 20, 2025',
      note: 'Nothing is owed on this loan.',
    });
    expect(doc.facts.at(-1)).toEqual({ label: 'Status', value: 'Closed, paid in full' });
    expect(doc.totals.at(-1)?.value).toBe('₱0.00');
    expect(doc.payoff).toBeNull();
    expect(doc.dueNow).toBeNull();
  });

  it('uses the language of the request for texts, dates and money', () => {
    const zh = statementDocument(input('closed', paidOff(), '2025-04-23'), 'zh');
    expect(zh.title).toBe('账户对账单');
    expect(zh.paidInFull?.headline).toBe('已于2025年4月20日全部还清');
    expect(zh.rows[0]).toMatchObject({ date: '2025年1月31日', description: '贷款已发放' });
    const km = statementDocument(input('approved', records, '2025-04-10'), 'km');
    expect(km.title).toBe('របាយការណ៍គណនី');
    expect(km.facts[0]?.value).toBe('10 មេសា 2025');
    expect(km.terms[2]?.value).toBe('12 ខែ');
  });

  it('notes a negative balance as money held for the borrower', () => {
    const doc = statementDocument(input('approved', records, '2025-04-10'), 'en');
    expect(doc.notes).toEqual([]);
    const held = input('approved', records, '2025-04-10');
    held.statement = { ...held.statement, closingBalanceMinor: -500 };
    expect(statementDocument(held, 'en').notes).toEqual([statementTexts.en.creditBalanceNote]);
  });
});

describe('helpers', () => {
  it('fill replaces known placeholders and leaves unknown ones visible', () => {
    expect(fill('Page {page} of {pages}', { page: 1, pages: 3 })).toBe('Page 1 of 3');
    expect(fill('{missing}', {})).toBe('{missing}');
  });

  it('paidInFullOn is the last payment still standing, and null without one', () => {
    const statement = buildStatementOfAccount(paidOff(), '2025-04-23');
    expect(paidInFullOn(statement.lines)).toBe('2025-04-20');
    // A reversed payment counts as never received.
    expect(paidInFullOn(buildStatementOfAccount(records, '2025-04-10').lines)).toBe('2025-02-28');
    expect(
      paidInFullOn(buildStatementOfAccount({ ...records, repayments: [] }, '2025-02-01').lines),
    ).toBeNull();
  });
});

describe('statement texts', () => {
  const shape = (value: unknown, path = ''): string[] =>
    typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, v]) => shape(v, `${path}${key}.`))
      : [
          `${path.slice(0, -1)} ${[...String(value).matchAll(/\{(\w+)\}/g)]
            .map((m) => m[1])
            .sort()
            .join(',')}`,
        ];

  it('have the same keys and placeholders in en, zh, km and fil, and every text is translated', () => {
    const en = shape(statementTexts.en);
    expect(shape(statementTexts.zh)).toEqual(en);
    expect(shape(statementTexts.km)).toEqual(en);
    expect(shape(statementTexts.fil)).toEqual(en);
    const flat = (o: unknown): string[] =>
      typeof o === 'object' && o !== null ? Object.values(o).flatMap(flat) : [String(o)];
    const english = flat(statementTexts.en);
    // Filipino statements write these bookkeeping words and the abbreviation as English does.
    const sameInFilipino = new Set(['Status', 'Debit', 'Credit', 'ref. {reference}']);
    for (const language of ['zh', 'km', 'fil'] as const) {
      const translated = flat(statementTexts[language]);
      expect(
        translated.filter(
          (text, i) =>
            text === english[i] &&
            /[a-z]{3}/i.test(text) &&
            !(language === 'fil' && sameInFilipino.has(text)),
        ),
      ).toEqual([]);
    }
  });
});
