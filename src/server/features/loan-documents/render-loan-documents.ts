import { isoCivil, writeIsoDate, zonedParts } from '../../../domain/date-text';
import { intlLocales, type Language } from '../../../domain/languages';
import type { StoredDisclosure as Disclosure } from '../../../domain/loan/disclosure';
import { formatMoney } from '../../../domain/money';
import { percentFormat } from '../../../domain/percent-text';
import {
  drawPageFooters,
  type OpenPdf,
  openPdf,
  type PdfCursor,
  pageSizes,
  pdfColors,
} from '../../pdf/pdf-layout';
import type { PdfText, TextStyle } from '../../pdf/pdf-text';
import en from './texts/en.json';
import fil from './texts/fil.json';
import km from './texts/km.json';
import zh from './texts/zh.json';

/** The documents' texts in every language (key parity is tested). */
export const loanDocumentTexts: Record<Language, typeof en> = { en, zh, km, fil };

const PAGE = pageSizes.a4;
const FOOTER_HEIGHT = 36;

/** "{name}" placeholders filled in; an unknown one is left as written so a mistake shows. */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

export interface DisclosureFacts {
  lenderName: string;
  supportEmail: string;
  disclosure: Disclosure;
  /** Null before applying (an estimate from step 1). */
  borrowerName: string | null;
  loanNumber: string | null;
  /** When the document was made: the signing time of a stored disclosure, the quote's start day otherwise. */
  issuedAt: Date;
  timeZone: string;
}

export interface AgreementFacts extends DisclosureFacts {
  borrowerName: string;
  loanNumber: string;
  idNumber: string;
  address: string;
  regulatorContact: string;
  disclosureSha256: string;
  /** The drawn signature (PNG) as stored, or null when the file cannot be read. */
  signaturePng: Buffer | null;
}

/** Date and time of an instant in the lender's time zone, written like the app writes them. */
function civilParts(instant: Date, timeZone: string) {
  const { date, time } = isoCivil(zonedParts(instant, timeZone));
  return { date, time };
}

/** One A4 document with the shared header, page footer and a cursor; pdfkit metadata fixed from the facts. */
function startDocument(title: string, facts: DisclosureFacts, language: Language) {
  return openPdf({
    page: PAGE,
    language,
    bufferPages: true,
    footerHeight: FOOTER_HEIGHT,
    // Everything pdfkit writes into the file (its ID is a hash of this info) comes from stored data, so the
    // same record always renders to the same bytes.
    info: {
      Title: facts.loanNumber ? `${title} ${facts.loanNumber}` : title,
      Author: facts.lenderName,
      Creator: facts.lenderName,
      Producer: facts.lenderName,
      CreationDate: facts.issuedAt,
    },
  });
}

type Writer = ReturnType<typeof writer>;

/** The cursor with the documents' own habits: indented paragraphs with a gap, and label–value rows. */
function writer(cursor: PdfCursor, text: PdfText) {
  const { left, right, width } = cursor;
  const paragraph = (value: string, style: TextStyle, indent = 0, gap = 2) =>
    cursor.paragraph(value, style, { x: left + indent, maxWidth: width - indent, gap });
  /** A label on the left, a value on the right (right-aligned), wrapping the label. */
  const row = (label: string, value: string, style: TextStyle, indent = 0) => {
    const valueWidth = 130;
    const lines = text.wrap(label, width - indent - valueWidth - 10, style);
    cursor.ensure(lines.length * text.lineHeight(style));
    lines.forEach((line, i) => {
      text.draw(line, left + indent, cursor.y + i * text.lineHeight(style), style);
    });
    text.draw(value, right - valueWidth, cursor.y, style, { align: 'right', width: valueWidth });
    cursor.y += lines.length * text.lineHeight(style) + 1;
  };
  return {
    cursor,
    left,
    right,
    width,
    ensure: (height: number) => cursor.ensure(height),
    rule: () => cursor.rule(),
    paragraph,
    row,
  };
}

const small: TextStyle = { size: 8, color: pdfColors.muted };
const body: TextStyle = { size: 9.5 };
const bold: TextStyle = { size: 9.5, bold: true };
const section: TextStyle = { size: 11, bold: true };

function header(w: Writer, text: PdfText, lender: string, title: string, subtitle: string) {
  text.draw(lender, w.left, w.cursor.y, { size: 12, bold: true, color: pdfColors.muted });
  w.cursor.y += text.lineHeight({ size: 12 });
  for (const line of text.wrap(title, w.width, { size: 17, bold: true })) {
    text.draw(line, w.left, w.cursor.y, { size: 17, bold: true });
    w.cursor.y += text.lineHeight({ size: 17 });
  }
  w.paragraph(subtitle, small, 0, 4);
  w.rule();
  w.cursor.y += 8;
}

/** Label over value, two to a row. */
function facts(w: Writer, text: PdfText, pairs: { label: string; value: string }[]) {
  const column = w.width / 2;
  for (let i = 0; i < pairs.length; i += 2) {
    let height = 0;
    pairs.slice(i, i + 2).forEach((pair, c) => {
      let at = w.cursor.y;
      text.draw(pair.label, w.left + c * column, at, small);
      at += text.lineHeight(small);
      for (const line of text.wrap(pair.value, column - 12, bold)) {
        text.draw(line, w.left + c * column, at, bold);
        at += text.lineHeight(bold);
      }
      height = Math.max(height, at - w.cursor.y);
    });
    w.cursor.y += height + 4;
  }
  w.cursor.y += 4;
}

function scheduleTable(
  doc: PDFKit.PDFDocument,
  w: Writer,
  text: PdfText,
  t: typeof en,
  d: Disclosure,
  money: (minor: number) => string,
  date: (iso: string) => string,
) {
  const keys = ['number', 'dueDate', 'payment', 'principal', 'interest', 'balance'] as const;
  const widths = { number: 34, dueDate: 110, payment: 0, principal: 0, interest: 0, balance: 0 };
  const moneyWidth = (w.width - widths.number - widths.dueDate) / 4;
  const xs: Record<(typeof keys)[number], number> = {} as never;
  let x = w.left;
  for (const key of keys) {
    xs[key] = x;
    const width = key === 'number' || key === 'dueDate' ? widths[key] : moneyWidth;
    widths[key] = width;
    x += width;
  }
  const headerStyle: TextStyle = { size: 8.5, bold: true };
  const drawHeader = () => {
    const height = text.lineHeight(headerStyle) + 4;
    doc.rect(w.left, w.cursor.y, w.width, height).fill(pdfColors.headerFill);
    for (const key of keys) {
      const numeric = key !== 'dueDate';
      text.draw(t.columns[key], xs[key] + (numeric ? 0 : 4), w.cursor.y + 2, headerStyle, {
        align: numeric ? 'right' : 'left',
        width: widths[key] - 4,
      });
    }
    w.cursor.y += height + 1;
  };
  w.ensure(60);
  drawHeader();
  const cell: TextStyle = { size: 8.5 };
  for (const item of d.schedule) {
    if (w.cursor.y + text.lineHeight(cell) > w.cursor.bottom) {
      w.cursor.newPage();
      drawHeader();
    }
    const values = {
      number: String(item.number),
      dueDate: date(item.dueDate),
      payment: money(item.paymentMinor),
      principal: money(item.principalMinor),
      interest: money(item.interestMinor),
      balance: money(item.balanceMinor),
    };
    for (const key of keys) {
      const numeric = key !== 'dueDate';
      text.draw(values[key], xs[key] + (numeric ? 0 : 4), w.cursor.y, cell, {
        align: numeric ? 'right' : 'left',
        width: widths[key] - 4,
      });
    }
    w.cursor.y += text.lineHeight(cell);
  }
  w.cursor.y += 2;
  w.rule();
  w.cursor.y += 3;
  w.row(t.totalPayments, money(d.totalRepayableMinor), bold);
}

/** The disclosure's six sections, in the order of the Philippine form. */
function disclosureSections(
  doc: PDFKit.PDFDocument,
  w: Writer,
  text: PdfText,
  t: typeof en,
  d: Disclosure,
  language: Language,
) {
  const locale = intlLocales[language];
  const money = (minor: number) => formatMoney(minor, { locale });
  const date = (iso: string) => writeIsoDate(language, iso) ?? iso;
  const percent = (decimal: string) => percentFormat(locale).format(Number(decimal));
  const deductedFees = d.fees.totalMinor;

  const heading = (value: string) => {
    w.ensure(text.lineHeight(section) + 20);
    w.cursor.y += 4;
    w.paragraph(value, section, 0, 2);
  };
  heading(t.section1);
  w.row('', money(d.amountMinor), bold);
  heading(t.section2);
  w.row(fill(t.interest, { rate: percent(d.monthlyRate) }), money(d.totalInterestMinor), body, 12);
  w.row(t.fees, money(d.fees.totalMinor), body, 12);
  w.row(t.totalFinanceCharges, money(d.totalCostOfCreditMinor), bold, 12);
  heading(t.section3);
  w.row('', money(d.amountMinor - deductedFees), bold);
  if (d.version >= 2 && deductedFees > 0) w.paragraph(t.feesDeducted, body, 12, 2);
  heading(t.section4);
  w.paragraph(fill(t.contractualRate, { monthly: percent(d.monthlyRate), apr: percent(d.apr) }), body, 12, 1);
  w.paragraph(fill(t.effectiveRate, { eir: percent(d.effectiveAnnualRate) }), bold, 12, 2);
  heading(t.section5);
  w.paragraph(fill(t.instalments, { count: d.termMonths, amount: money(d.monthlyPaymentMinor) }), body, 0, 3);
  scheduleTable(doc, w, text, t, d, money, date);
  heading(t.section6);
  // A snapshot signed before version 2 named no rate or grace days: it is shown as it was signed.
  if (d.version === 1) w.paragraph(t.lateCharges, body, 12, 4);
  else if (d.lateCharge.monthlyBp > 0) {
    const rate = percent(d.lateCharge.monthlyRate);
    w.paragraph(fill(t.lateChargeTerms, { rate, days: d.lateCharge.graceDays }), body, 12, 4);
  } else w.paragraph(fill(t.noLateCharge, { days: d.lateCharge.graceDays }), body, 12, 4);
}

function footers(pdf: OpenPdf, t: typeof en, email: string) {
  drawPageFooters(pdf, PAGE, {
    top: PAGE.height - PAGE.margin - FOOTER_HEIGHT + 12,
    footer: fill(t.footer, { email }),
    pageLabel: (page, pages) => fill(t.page, { page, pages }),
    style: small,
  });
}

/**
 * The "Disclosure statement on loan/credit transaction" (Truth in Lending Act, RA 3765; the BSP/SEC form):
 * creditor and borrower, 1 amount financed, 2 finance charges, 3 net proceeds, 4 the finance charge as a
 * rate (contractual and EIR), 5 the payment schedule, 6 late charges, the borrower's certification and the
 * notice of the right to a copy.
 */
export function renderDisclosurePdf(facts: DisclosureFacts, language: Language): Promise<Buffer> {
  const t = loanDocumentTexts[language];
  const pdf = startDocument(t.disclosureTitle, facts, language);
  const { doc, text } = pdf;
  const w = writer(pdf.cursor, text);
  const d = facts.disclosure;
  const money = (minor: number) => formatMoney(minor, { locale: intlLocales[language] });
  const issued = civilParts(facts.issuedAt, facts.timeZone);
  header(w, text, facts.lenderName, t.disclosureTitle, t.disclosureLaw);
  if (facts.loanNumber === null) {
    const date = writeIsoDate(language, d.startDate) ?? d.startDate;
    w.paragraph(fill(t.quoteNote, { amount: money(d.amountMinor), months: d.termMonths, date }), body, 0, 6);
  }
  facts_(w, text, t, facts, issued.date, language);
  disclosureSections(doc, w, text, t, d, language);
  w.cursor.y += 6;
  w.paragraph(t.certification, body, 0, 24);
  w.ensure(40);
  doc
    .moveTo(w.left, w.cursor.y)
    .lineTo(w.left + 240, w.cursor.y)
    .lineWidth(0.6)
    .strokeColor(pdfColors.text)
    .stroke();
  w.cursor.y += 3;
  w.paragraph(
    facts.borrowerName ? `${t.signatureLine}: ${facts.borrowerName}` : t.signatureLine,
    small,
    0,
    10,
  );
  w.paragraph(t.notice, bold, 0, 0);
  footers(pdf, t, facts.supportEmail);
  return pdf.finish();
}

function facts_(
  w: Writer,
  text: PdfText,
  t: typeof en,
  f: DisclosureFacts,
  issuedDate: string,
  language: Language,
) {
  facts(w, text, [
    { label: t.creditor, value: f.lenderName },
    { label: t.borrower, value: f.borrowerName ?? t.notYetApplied },
    { label: t.loanNumber, value: f.loanNumber ?? t.notYetApplied },
    { label: t.statementDate, value: writeIsoDate(language, issuedDate) ?? issuedDate },
  ]);
}

/**
 * The signed loan agreement: the parties, the terms signed, the clauses, the disclosure statement it binds
 * (all six sections), and the electronic signature: the drawn signature, when it was signed and the SHA-256
 * of the exact disclosure it was bound to.
 */
export function renderAgreementPdf(facts: AgreementFacts, language: Language): Promise<Buffer> {
  const t = loanDocumentTexts[language];
  const pdf = startDocument(t.agreementTitle, facts, language);
  const { doc, text } = pdf;
  const w = writer(pdf.cursor, text);
  const d = facts.disclosure;
  const locale = intlLocales[language];
  const money = (minor: number) => formatMoney(minor, { locale });
  const date = (iso: string) => writeIsoDate(language, iso) ?? iso;
  const percent = (decimal: string) => percentFormat(locale).format(Number(decimal));
  const signed = civilParts(facts.issuedAt, facts.timeZone);

  header(w, text, facts.lenderName, t.agreementTitle, `${t.loanNumber}: ${facts.loanNumber}`);
  w.paragraph(
    fill(t.parties, {
      lender: facts.lenderName,
      borrower: facts.borrowerName,
      idNumber: facts.idNumber,
      address: facts.address,
    }),
    body,
    0,
    6,
  );
  w.paragraph(t.agreementTerms, section, 0, 2);
  const first = d.schedule[0];
  const last = d.schedule[d.schedule.length - 1];
  for (const [label, value] of [
    [t.amount, money(d.amountMinor)],
    [t.term, fill(t.termMonths, { months: d.termMonths })],
    [t.monthlyRate, percent(d.monthlyRate)],
    [t.eir, percent(d.effectiveAnnualRate)],
    [t.monthlyPayment, money(d.monthlyPaymentMinor)],
    [t.totalRepayable, money(d.totalRepayableMinor)],
    [t.firstDue, first ? date(first.dueDate) : '-'],
    [t.lastDue, last ? date(last.dueDate) : '-'],
  ] as const) {
    w.row(label, value, body, 12);
  }
  w.cursor.y += 6;
  t.clauses.forEach((clause, i) => {
    w.paragraph(`${i + 1}. ${fill(clause, { regulator: facts.regulatorContact })}`, body, 0, 3);
  });

  // The signature block.
  w.cursor.y += 6;
  w.ensure(170);
  w.paragraph(t.signedTitle, section, 0, 4);
  const boxTop = w.cursor.y;
  const boxHeight = 84;
  doc.rect(w.left, boxTop, 260, boxHeight).lineWidth(0.6).fillAndStroke(pdfColors.box, pdfColors.rule);
  if (facts.signaturePng) {
    doc.image(facts.signaturePng, w.left + 6, boxTop + 4, {
      fit: [248, boxHeight - 8],
      align: 'center',
      valign: 'center',
    });
  } else {
    text.draw(t.signatureMissing, w.left + 8, boxTop + 8, small);
  }
  w.cursor.y = boxTop + boxHeight + 4;
  w.paragraph(facts.borrowerName, bold, 0, 1);
  w.paragraph(
    fill(t.signedAt, { date: date(signed.date), time: signed.time, timeZone: facts.timeZone }),
    body,
    0,
    4,
  );
  w.paragraph(t.boundTo, small, 0, 1);
  w.paragraph(facts.disclosureSha256, { size: 8.5, bold: true }, 0, 8);

  // The disclosure statement it binds, on its own page.
  w.cursor.newPage();
  header(w, text, facts.lenderName, t.disclosureTitle, t.disclosureLaw);
  facts_(w, text, t, facts, signed.date, language);
  disclosureSections(doc, w, text, t, d, language);
  w.cursor.y += 4;
  w.paragraph(t.certification, body, 0, 4);
  w.paragraph(t.notice, bold, 0, 0);
  footers(pdf, t, facts.supportEmail);
  return pdf.finish();
}
