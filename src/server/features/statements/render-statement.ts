import { drawPageFooters, openPdf, pageSizes, pdfColors } from '../../pdf/pdf-layout';
import type { TextStyle } from '../../pdf/pdf-text';
import type { StatementDocument } from './statement-text';

const FOOTER_HEIGHT = 44;

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
  const pdf = openPdf({
    page: pageSizes.a4,
    language: document.language,
    bufferPages: true,
    compress: options.compress ?? true,
    footerHeight: FOOTER_HEIGHT,
    info: {
      Title: `${document.title} ${document.loanNumber}`,
      Author: document.lenderName,
      Creator: document.lenderName,
      CreationDate: options.createdAt ?? new Date(),
    },
  });
  const { doc, text, cursor } = pdf;
  const { left, right, width: contentWidth, bottom } = cursor;

  const small: TextStyle = { size: 8, color: pdfColors.muted };
  const body: TextStyle = { size: 9.5 };
  const bodyBold: TextStyle = { size: 9.5, bold: true };
  const sectionTitle: TextStyle = { size: 11.5, bold: true };

  // Header: the lender, the title, a rule.
  text.draw(document.lenderName, left, cursor.y, { size: 12, bold: true, color: pdfColors.muted });
  cursor.y += text.lineHeight({ size: 12 });
  text.draw(document.title, left, cursor.y, { size: 20, bold: true });
  cursor.y += text.lineHeight({ size: 20 }) + 4;
  cursor.rule();
  cursor.y += 10;

  // Facts in two columns: statement date and borrower, loan number and status.
  const columnWidth = contentWidth / 2;
  for (let i = 0; i < document.facts.length; i += 2) {
    const pair = document.facts.slice(i, i + 2);
    let rowHeight = 0;
    pair.forEach((fact, column) => {
      const x = left + column * columnWidth;
      let at = cursor.y;
      text.draw(fact.label, x, at, small);
      at += text.lineHeight(small);
      for (const line of text.wrap(fact.value, columnWidth - 12, bodyBold)) {
        text.draw(line, x, at, bodyBold);
        at += text.lineHeight(bodyBold);
      }
      rowHeight = Math.max(rowHeight, at - cursor.y);
    });
    cursor.y += rowHeight + 6;
  }

  // Paid in full: the first thing a borrower looks for on a closed loan.
  if (document.paidInFull) {
    const headline: TextStyle = { size: 15, bold: true, color: pdfColors.paidText };
    const note: TextStyle = { size: 9.5, color: pdfColors.paidText };
    const height = text.lineHeight(headline) + text.lineHeight(note) + 16;
    cursor.y += 4;
    doc
      .roundedRect(left, cursor.y, contentWidth, height, 4)
      .lineWidth(1.2)
      .fillAndStroke(pdfColors.paidFill, pdfColors.paidBorder);
    text.draw(document.paidInFull.headline, left + 14, cursor.y + 8, headline);
    text.draw(document.paidInFull.note, left + 14, cursor.y + 8 + text.lineHeight(headline), note);
    cursor.y += height + 14;
  }

  // Loan terms: label over value, in one row.
  text.draw(document.termsTitle, left, cursor.y, sectionTitle);
  cursor.y += text.lineHeight(sectionTitle) + 2;
  const termWidth = contentWidth / document.terms.length;
  let termsHeight = 0;
  document.terms.forEach((term, index) => {
    const x = left + index * termWidth;
    let at = cursor.y;
    for (const line of text.wrap(term.label, termWidth - 8, small)) {
      text.draw(line, x, at, small);
      at += text.lineHeight(small);
    }
    text.draw(term.value, x, at, bodyBold);
    at += text.lineHeight(bodyBold);
    termsHeight = Math.max(termsHeight, at - cursor.y);
  });
  cursor.y += termsHeight + 12;

  // Transactions.
  const columns = {
    date: { x: left, width: 74 },
    description: { x: left + 78, width: contentWidth - 78 - 3 * 78 },
    debit: { x: right - 3 * 78, width: 74 },
    credit: { x: right - 2 * 78, width: 74 },
    balance: { x: right - 78, width: 78 },
  };
  const headerStyle: TextStyle = { size: 8.5, bold: true };
  const detailStyle: TextStyle = { size: 7.5, color: pdfColors.muted };
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
    doc.rect(left, cursor.y, contentWidth, height).fill(pdfColors.headerFill);
    for (const key of ['date', 'description', 'debit', 'credit', 'balance'] as const) {
      const numeric = key === 'debit' || key === 'credit' || key === 'balance';
      let at = cursor.y + 3;
      for (const line of text.wrap(labels[key], columns[key].width, headerStyle)) {
        text.draw(line, columns[key].x, at, headerStyle, {
          align: numeric ? 'right' : 'left',
          width: columns[key].width,
        });
        at += text.lineHeight(headerStyle);
      }
    }
    cursor.y += height + 2;
  };

  text.draw(document.transactionsTitle, left, cursor.y, sectionTitle);
  cursor.y += text.lineHeight(sectionTitle) + 2;
  cursor.ensure(60);
  tableHeader();
  if (document.rows.length === 0) {
    text.draw(document.emptyText, left, cursor.y + 2, { ...body, color: pdfColors.muted });
    cursor.y += text.lineHeight(body) + 6;
  }
  for (const row of document.rows) {
    const description = text.wrap(row.description, columns.description.width - 4, body);
    const detail = row.detail ? text.wrap(row.detail, columns.description.width - 4, detailStyle) : [];
    const height =
      description.length * text.lineHeight(body) + detail.length * text.lineHeight(detailStyle) + 4;
    if (cursor.y + height > bottom) {
      cursor.newPage();
      tableHeader();
    }
    let at = cursor.y + 2;
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
      text.draw(row[key], columns[key].x, cursor.y + 2, key === 'balance' ? bodyBold : body, {
        align: 'right',
        width: columns[key].width,
      });
    }
    cursor.y += height;
    cursor.rule();
  }
  cursor.y += 14;

  // Totals, right-aligned under the money columns.
  const totalsHeight = text.lineHeight(sectionTitle) + document.totals.length * text.lineHeight(body) + 10;
  cursor.ensure(totalsHeight);
  const labelX = left + contentWidth * 0.35;
  const labelWidth = right - 110 - labelX;
  text.draw(document.totalsTitle, labelX, cursor.y, sectionTitle);
  cursor.y += text.lineHeight(sectionTitle);
  document.totals.forEach((total, index) => {
    const last = index === document.totals.length - 1;
    const style = last ? bodyBold : body;
    if (last) {
      doc
        .moveTo(labelX, cursor.y + 1)
        .lineTo(right, cursor.y + 1)
        .lineWidth(0.6)
        .strokeColor(pdfColors.rule)
        .stroke();
      cursor.y += 3;
    }
    const lines = text.wrap(total.label, labelWidth, style);
    lines.forEach((line, i) => {
      text.draw(line, labelX, cursor.y + i * text.lineHeight(style), style);
    });
    text.draw(total.value, right - 110, cursor.y, style, { align: 'right', width: 110 });
    cursor.y += lines.length * text.lineHeight(style);
  });
  cursor.y += 12;

  // What brings the loan up to date, then what pays it off: each in a box the eye finds.
  for (const box of [document.dueNow, document.payoff]) {
    if (!box) continue;
    const label: TextStyle = { size: 10, bold: true };
    const value: TextStyle = { size: 13, bold: true };
    const lines = text.wrap(box.label, contentWidth - 170, label);
    const height = Math.max(lines.length * text.lineHeight(label), text.lineHeight(value)) + 16;
    cursor.ensure(height + 6);
    doc
      .roundedRect(left, cursor.y, contentWidth, height, 4)
      .lineWidth(1)
      .fillAndStroke(pdfColors.payoffFill, pdfColors.payoffBorder);
    lines.forEach((line, i) => {
      text.draw(line, left + 12, cursor.y + 8 + i * text.lineHeight(label), label);
    });
    text.draw(box.value, right - 160, cursor.y + 8, value, { align: 'right', width: 148 });
    cursor.y += height + 12;
  }

  for (const note of document.notes) {
    const lines = text.wrap(note, contentWidth, small);
    cursor.ensure(lines.length * text.lineHeight(small));
    for (const line of lines) {
      text.draw(line, left, cursor.y, small);
      cursor.y += text.lineHeight(small);
    }
  }

  // The footer on every page: how to ask a question, and "Page x of y".
  drawPageFooters(pdf, pageSizes.a4, {
    top: pageSizes.a4.height - pageSizes.a4.margin - FOOTER_HEIGHT + 14,
    footer: document.footer,
    pageLabel: document.pageLabel,
    style: small,
  });
  return pdf.finish();
}
