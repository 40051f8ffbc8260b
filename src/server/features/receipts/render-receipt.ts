import { openPdf, pageSizes, pdfColors } from '../../pdf/pdf-layout';
import type { TextStyle } from '../../pdf/pdf-text';
import type { ReceiptDocument } from './receipt-text';

export interface RenderOptions {
  /** Uncompressed content streams (tests). */
  compress?: boolean;
  createdAt?: Date;
}

/**
 * Lays a receipt out on one A5 page: the lender and the title, the receipt number, the amount, REVERSED
 * with its reason when it was, the facts, the breakdown, the notes and how to ask about it.
 */
export function renderReceiptPdf(document: ReceiptDocument, options: RenderOptions = {}): Promise<Buffer> {
  const { doc, text, cursor, finish } = openPdf({
    page: pageSizes.a5,
    language: document.language,
    compress: options.compress ?? true,
    info: {
      Title: `${document.title} ${document.receiptNumber}`,
      Author: document.lenderName,
      Creator: document.lenderName,
      CreationDate: options.createdAt ?? new Date(),
    },
  });
  const { left, right, width } = cursor;

  const small: TextStyle = { size: 7.5, color: pdfColors.muted };
  const label: TextStyle = { size: 8.5, color: pdfColors.muted };
  const body: TextStyle = { size: 9.5 };
  const bodyBold: TextStyle = { size: 9.5, bold: true };
  // One A5 page: paragraphs never start another.
  const paragraph = (value: string, style: TextStyle) => cursor.paragraph(value, style, { breaks: false });

  // The lender, the title and when it was issued.
  text.draw(document.lenderName, left, cursor.y, { size: 10, bold: true, color: pdfColors.muted });
  text.draw(document.issued, left, cursor.y, small, { align: 'right', width });
  cursor.y += text.lineHeight({ size: 10 });
  paragraph(document.title, { size: 17, bold: true });
  cursor.y += 2;
  cursor.rule();
  cursor.y += 10;

  // The amount, in a band.
  const headlineValue: TextStyle = { size: 18, bold: true };
  const bandHeight = text.lineHeight(label) + text.lineHeight(headlineValue) + 12;
  doc.roundedRect(left, cursor.y, width, bandHeight, 4).fill(pdfColors.headerFill);
  text.draw(document.headline.label, left + 10, cursor.y + 6, label);
  text.draw(document.headline.value, left + 10, cursor.y + 6 + text.lineHeight(label), headlineValue);
  cursor.y += bandHeight + 10;

  if (document.reversed) {
    const word: TextStyle = { size: 13, bold: true, color: pdfColors.reversedText };
    const note: TextStyle = { size: 9, color: pdfColors.reversedText };
    const lines = text.wrap(document.reversed.note, width - 20, note);
    const height = text.lineHeight(word) + lines.length * text.lineHeight(note) + 12;
    doc
      .roundedRect(left, cursor.y, width, height, 4)
      .lineWidth(1.2)
      .fillAndStroke(pdfColors.reversedFill, pdfColors.reversedBorder);
    text.draw(document.reversed.label, left + 10, cursor.y + 6, word);
    lines.forEach((line, i) => {
      text.draw(line, left + 10, cursor.y + 6 + text.lineHeight(word) + i * text.lineHeight(note), note);
    });
    cursor.y += height + 10;
  }

  // The facts: label on the left, value on the right (wrapped under each other when long).
  const labelWidth = width * 0.42;
  const valueX = left + labelWidth + 8;
  const valueWidth = right - valueX;
  const row = (fact: { label: string; value: string }, style: TextStyle) => {
    const labels = text.wrap(fact.label, labelWidth, label);
    const values = text.wrap(fact.value, valueWidth, style);
    const top = cursor.y;
    labels.forEach((line, i) => {
      text.draw(line, left, top + i * text.lineHeight(body), label);
    });
    values.forEach((line, i) => {
      text.draw(line, valueX, top + i * text.lineHeight(body), style);
    });
    cursor.y += Math.max(labels.length, values.length) * text.lineHeight(body) + 3;
  };
  for (const fact of document.facts) row(fact, bodyBold);

  if (document.breakdown.length > 0) {
    cursor.y += 6;
    cursor.rule();
    cursor.y += 8;
    paragraph(document.breakdownTitle, { size: 10.5, bold: true });
    cursor.y += 2;
    for (const part of document.breakdown) row(part, body);
  }

  cursor.y += 8;
  cursor.rule();
  cursor.y += 8;
  for (const note of document.notes) paragraph(note, small);
  cursor.y += 4;
  paragraph(document.footer, small);

  return finish();
}
