import PDFDocument from 'pdfkit';
import { PdfText, type TextStyle } from '../../pdf/pdf-text';
import type { StatementDocument } from './statement-text';

/** A4 in points, with the margins a printed statement needs. */
const PAGE = { width: 595.28, height: 841.89, margin: 42 };
const FOOTER_HEIGHT = 44;
const colors = {
  text: '#111111',
  muted: '#555555',
  rule: '#c8c8c8',
  headerFill: '#eef1f4',
  paidFill: '#e6f4ea',
  paidBorder: '#2e7d32',
  paidText: '#1b5e20',
  payoffFill: '#fff8e1',
  payoffBorder: '#b26a00',
};

export interface RenderOptions {
  /** Uncompressed content streams (tests); the text still sits in the fonts' glyph ids. */
  compress?: boolean;
  /** The document's creation date (the PDF's metadata). */
  createdAt?: Date;
}

/**
 * Lays the statement out on A4 pages: header, facts, the paid-in-full banner, terms, the transaction table
 * (its header repeated on every page), totals, the payoff, notes and a footer with the page number.
 */
export function renderStatementPdf(
  document: StatementDocument,
  options: RenderOptions = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    compress: options.compress ?? true,
    info: {
      Title: `${document.title} ${document.loanNumber}`,
      Author: document.lenderName,
      Creator: document.lenderName,
      CreationDate: options.createdAt ?? new Date(),
    },
    lang: document.language,
  } as PDFKit.PDFDocumentOptions);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const text = new PdfText(doc, document.language);
  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  const contentWidth = right - left;
  const bottom = PAGE.height - PAGE.margin - FOOTER_HEIGHT;
  let y = PAGE.margin;

  const small: TextStyle = { size: 8, color: colors.muted };
  const body: TextStyle = { size: 9.5 };
  const bodyBold: TextStyle = { size: 9.5, bold: true };
  const sectionTitle: TextStyle = { size: 11.5, bold: true };

  const newPage = () => {
    doc.addPage();
    y = PAGE.margin;
  };
  const ensure = (height: number) => {
    if (y + height > bottom) newPage();
  };
  const rule = (at: number, color = colors.rule) => {
    doc.moveTo(left, at).lineTo(right, at).lineWidth(0.6).strokeColor(color).stroke();
  };

  // Header: the lender, the title, a rule.
  text.draw(document.lenderName, left, y, { size: 12, bold: true, color: colors.muted });
  y += text.lineHeight({ size: 12 });
  text.draw(document.title, left, y, { size: 20, bold: true });
  y += text.lineHeight({ size: 20 }) + 4;
  rule(y);
  y += 10;

  // Facts in two columns: statement date and borrower, loan number and status.
  const columnWidth = contentWidth / 2;
  for (let i = 0; i < document.facts.length; i += 2) {
    const pair = document.facts.slice(i, i + 2);
    let rowHeight = 0;
    pair.forEach((fact, column) => {
      const x = left + column * columnWidth;
      let at = y;
      text.draw(fact.label, x, at, small);
      at += text.lineHeight(small);
      for (const line of text.wrap(fact.value, columnWidth - 12, bodyBold)) {
        text.draw(line, x, at, bodyBold);
        at += text.lineHeight(bodyBold);
      }
      rowHeight = Math.max(rowHeight, at - y);
    });
    y += rowHeight + 6;
  }

  // Paid in full: the first thing a borrower looks for on a closed loan.
  if (document.paidInFull) {
    const headline: TextStyle = { size: 15, bold: true, color: colors.paidText };
    const note: TextStyle = { size: 9.5, color: colors.paidText };
    const height = text.lineHeight(headline) + text.lineHeight(note) + 16;
    y += 4;
    doc
      .roundedRect(left, y, contentWidth, height, 4)
      .lineWidth(1.2)
      .fillAndStroke(colors.paidFill, colors.paidBorder);
    text.draw(document.paidInFull.headline, left + 14, y + 8, headline);
    text.draw(document.paidInFull.note, left + 14, y + 8 + text.lineHeight(headline), note);
    y += height + 14;
  }

  // Loan terms: label over value, in one row.
  text.draw(document.termsTitle, left, y, sectionTitle);
  y += text.lineHeight(sectionTitle) + 2;
  const termWidth = contentWidth / document.terms.length;
  let termsHeight = 0;
  document.terms.forEach((term, index) => {
    const x = left + index * termWidth;
    let at = y;
    for (const line of text.wrap(term.label, termWidth - 8, small)) {
      text.draw(line, x, at, small);
      at += text.lineHeight(small);
    }
    text.draw(term.value, x, at, bodyBold);
    at += text.lineHeight(bodyBold);
    termsHeight = Math.max(termsHeight, at - y);
  });
  y += termsHeight + 12;

  // Transactions.
  const columns = {
    date: { x: left, width: 74 },
    description: { x: left + 78, width: contentWidth - 78 - 3 * 78 },
    debit: { x: right - 3 * 78, width: 74 },
    credit: { x: right - 2 * 78, width: 74 },
    balance: { x: right - 78, width: 78 },
  };
  const headerStyle: TextStyle = { size: 8.5, bold: true };
  const detailStyle: TextStyle = { size: 7.5, color: colors.muted };
  const tableHeader = () => {
    const labels = document.columns;
    const height =
      Math.max(
        ...(['date', 'description', 'debit', 'credit', 'balance'] as const).map(
          (key) => text.wrap(labels[key], columns[key].width, headerStyle).length,
        ),
      ) *
        text.lineHeight(headerStyle) +
      6;
    doc.rect(left, y, contentWidth, height).fill(colors.headerFill);
    for (const key of ['date', 'description', 'debit', 'credit', 'balance'] as const) {
      const numeric = key === 'debit' || key === 'credit' || key === 'balance';
      let at = y + 3;
      for (const line of text.wrap(labels[key], columns[key].width, headerStyle)) {
        text.draw(line, columns[key].x, at, headerStyle, {
          align: numeric ? 'right' : 'left',
          width: columns[key].width,
        });
        at += text.lineHeight(headerStyle);
      }
    }
    y += height + 2;
  };

  text.draw(document.transactionsTitle, left, y, sectionTitle);
  y += text.lineHeight(sectionTitle) + 2;
  ensure(60);
  tableHeader();
  if (document.rows.length === 0) {
    text.draw(document.emptyText, left, y + 2, { ...body, color: colors.muted });
    y += text.lineHeight(body) + 6;
  }
  for (const row of document.rows) {
    const description = text.wrap(row.description, columns.description.width - 4, body);
    const detail = row.detail ? text.wrap(row.detail, columns.description.width - 4, detailStyle) : [];
    const height =
      description.length * text.lineHeight(body) + detail.length * text.lineHeight(detailStyle) + 4;
    if (y + height > bottom) {
      newPage();
      tableHeader();
    }
    let at = y + 2;
    text.draw(row.date, columns.date.x, at, body);
    for (const line of description) {
      text.draw(line, columns.description.x, at, body);
      at += text.lineHeight(body);
    }
    for (const line of detail) {
      text.draw(line, columns.description.x, at, detailStyle);
      at += text.lineHeight(detailStyle);
    }
    for (const key of ['debit', 'credit', 'balance'] as const) {
      text.draw(row[key], columns[key].x, y + 2, key === 'balance' ? bodyBold : body, {
        align: 'right',
        width: columns[key].width,
      });
    }
    y += height;
    rule(y);
  }
  y += 14;

  // Totals, right-aligned under the money columns.
  const totalsHeight = text.lineHeight(sectionTitle) + document.totals.length * text.lineHeight(body) + 10;
  ensure(totalsHeight);
  const labelX = left + contentWidth * 0.35;
  const labelWidth = right - 110 - labelX;
  text.draw(document.totalsTitle, labelX, y, sectionTitle);
  y += text.lineHeight(sectionTitle);
  document.totals.forEach((total, index) => {
    const last = index === document.totals.length - 1;
    const style = last ? bodyBold : body;
    if (last) {
      doc
        .moveTo(labelX, y + 1)
        .lineTo(right, y + 1)
        .lineWidth(0.6)
        .strokeColor(colors.rule)
        .stroke();
      y += 3;
    }
    const lines = text.wrap(total.label, labelWidth, style);
    lines.forEach((line, i) => {
      text.draw(line, labelX, y + i * text.lineHeight(style), style);
    });
    text.draw(total.value, right - 110, y, style, { align: 'right', width: 110 });
    y += lines.length * text.lineHeight(style);
  });
  y += 12;

  // What brings the loan up to date, then what pays it off: each in a box the eye finds.
  for (const box of [document.dueNow, document.payoff]) {
    if (!box) continue;
    const label: TextStyle = { size: 10, bold: true };
    const value: TextStyle = { size: 13, bold: true };
    const lines = text.wrap(box.label, contentWidth - 170, label);
    const height = Math.max(lines.length * text.lineHeight(label), text.lineHeight(value)) + 16;
    ensure(height + 6);
    doc
      .roundedRect(left, y, contentWidth, height, 4)
      .lineWidth(1)
      .fillAndStroke(colors.payoffFill, colors.payoffBorder);
    lines.forEach((line, i) => {
      text.draw(line, left + 12, y + 8 + i * text.lineHeight(label), label);
    });
    text.draw(box.value, right - 160, y + 8, value, { align: 'right', width: 148 });
    y += height + 12;
  }

  for (const note of document.notes) {
    const lines = text.wrap(note, contentWidth, small);
    ensure(lines.length * text.lineHeight(small));
    for (const line of lines) {
      text.draw(line, left, y, small);
      y += text.lineHeight(small);
    }
  }

  // The footer on every page: how to ask a question, and "Page x of y".
  const range = doc.bufferedPageRange();
  const footerTop = PAGE.height - PAGE.margin - FOOTER_HEIGHT + 14;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc
      .moveTo(left, footerTop - 6)
      .lineTo(right, footerTop - 6)
      .lineWidth(0.6)
      .strokeColor(colors.rule)
      .stroke();
    const pageLabel = document.pageLabel(i - range.start + 1, range.count);
    const pageWidth = text.width(pageLabel, small) + 4;
    const footerLines = text.wrap(document.footer, contentWidth - pageWidth - 16, small);
    footerLines.forEach((line, n) => {
      text.draw(line, left, footerTop + n * text.lineHeight(small), small);
    });
    text.draw(pageLabel, right - pageWidth, footerTop, small, { align: 'right', width: pageWidth });
  }
  doc.end();
  return done;
}
