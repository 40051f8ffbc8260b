import PDFDocument from 'pdfkit';
import { PdfText, type TextStyle } from '../../pdf/pdf-text';
import type { ReceiptDocument } from './receipt-text';

/** A5 portrait in points: a receipt's size, printable on A4 or kept on a phone. */
const PAGE = { width: 419.53, height: 595.28, margin: 32 };
const colors = {
  muted: '#555555',
  rule: '#c8c8c8',
  headlineFill: '#eef1f4',
  reversedFill: '#fdecea',
  reversedBorder: '#b3261e',
  reversedText: '#8c1d18',
};

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
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: PAGE.margin,
    compress: options.compress ?? true,
    info: {
      Title: `${document.title} ${document.receiptNumber}`,
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
  const width = right - left;
  let y = PAGE.margin;

  const small: TextStyle = { size: 7.5, color: colors.muted };
  const label: TextStyle = { size: 8.5, color: colors.muted };
  const body: TextStyle = { size: 9.5 };
  const bodyBold: TextStyle = { size: 9.5, bold: true };
  const rule = (at: number) => {
    doc.moveTo(left, at).lineTo(right, at).lineWidth(0.6).strokeColor(colors.rule).stroke();
  };
  const paragraph = (value: string, style: TextStyle, x = left, maxWidth = width) => {
    for (const line of text.wrap(value, maxWidth, style)) {
      text.draw(line, x, y, style);
      y += text.lineHeight(style);
    }
  };

  // The lender, the title and when it was issued.
  text.draw(document.lenderName, left, y, { size: 10, bold: true, color: colors.muted });
  text.draw(document.issued, left, y, small, { align: 'right', width });
  y += text.lineHeight({ size: 10 });
  paragraph(document.title, { size: 17, bold: true });
  y += 2;
  rule(y);
  y += 10;

  // The amount, in a band.
  const headlineValue: TextStyle = { size: 18, bold: true };
  const bandHeight = text.lineHeight(label) + text.lineHeight(headlineValue) + 12;
  doc.roundedRect(left, y, width, bandHeight, 4).fill(colors.headlineFill);
  text.draw(document.headline.label, left + 10, y + 6, label);
  text.draw(document.headline.value, left + 10, y + 6 + text.lineHeight(label), headlineValue);
  y += bandHeight + 10;

  if (document.reversed) {
    const word: TextStyle = { size: 13, bold: true, color: colors.reversedText };
    const note: TextStyle = { size: 9, color: colors.reversedText };
    const lines = text.wrap(document.reversed.note, width - 20, note);
    const height = text.lineHeight(word) + lines.length * text.lineHeight(note) + 12;
    doc
      .roundedRect(left, y, width, height, 4)
      .lineWidth(1.2)
      .fillAndStroke(colors.reversedFill, colors.reversedBorder);
    text.draw(document.reversed.label, left + 10, y + 6, word);
    lines.forEach((line, i) => {
      text.draw(line, left + 10, y + 6 + text.lineHeight(word) + i * text.lineHeight(note), note);
    });
    y += height + 10;
  }

  // The facts: label on the left, value on the right (wrapped under each other when long).
  const labelWidth = width * 0.42;
  const valueX = left + labelWidth + 8;
  const valueWidth = right - valueX;
  const row = (fact: { label: string; value: string }, style: TextStyle) => {
    const labels = text.wrap(fact.label, labelWidth, label);
    const values = text.wrap(fact.value, valueWidth, style);
    const top = y;
    labels.forEach((line, i) => {
      text.draw(line, left, top + i * text.lineHeight(body), label);
    });
    values.forEach((line, i) => {
      text.draw(line, valueX, top + i * text.lineHeight(body), style);
    });
    y += Math.max(labels.length, values.length) * text.lineHeight(body) + 3;
  };
  for (const fact of document.facts) row(fact, bodyBold);

  if (document.breakdown.length > 0) {
    y += 6;
    rule(y);
    y += 8;
    paragraph(document.breakdownTitle, { size: 10.5, bold: true });
    y += 2;
    for (const part of document.breakdown) row(part, body);
  }

  y += 8;
  rule(y);
  y += 8;
  for (const note of document.notes) paragraph(note, small);
  y += 4;
  paragraph(document.footer, small);

  doc.end();
  return done;
}
