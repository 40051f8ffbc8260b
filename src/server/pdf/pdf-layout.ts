import PDFDocument from 'pdfkit';
import { PdfText, type TextStyle } from './pdf-text';

/**
 * What every PDF the lender sends shares (issue #37): page sizes, one palette, opening a document that
 * resolves to its bytes, a cursor that moves down the page and starts a new one before the footer, and the
 * footer on every page. The statement, the loan documents and the receipts lay out their own content with it.
 */

export interface PageSize {
  /** pdfkit's size: a name or [width, height] in points. */
  size: 'A4' | [number, number];
  width: number;
  height: number;
  margin: number;
}

export const pageSizes = {
  /** A4 in points, with the margins a printed statement or agreement needs. */
  a4: { size: 'A4', width: 595.28, height: 841.89, margin: 42 },
  /** A5 portrait: a receipt's size, printable on A4 or kept on a phone. */
  a5: { size: [419.53, 595.28], width: 419.53, height: 595.28, margin: 32 },
} as const satisfies Record<string, PageSize>;

/** One palette for every document: text, the muted grey, rules, bands, and the good, warning and bad boxes. */
export const pdfColors = {
  text: '#111111',
  muted: '#555555',
  rule: '#c8c8c8',
  headerFill: '#eef1f4',
  box: '#f7f9fb',
  paidFill: '#e6f4ea',
  paidBorder: '#2e7d32',
  paidText: '#1b5e20',
  payoffFill: '#fff8e1',
  payoffBorder: '#b26a00',
  reversedFill: '#fdecea',
  reversedBorder: '#b3261e',
  reversedText: '#8c1d18',
} as const;

export interface OpenPdfOptions {
  page: PageSize;
  language: string;
  info: PDFKit.DocumentInfo;
  /** Keep every page open to the end, for footers that say "page x of y". */
  bufferPages?: boolean;
  /** Uncompressed content streams (tests). */
  compress?: boolean;
  /** Room kept free at the bottom of every page for the footer. */
  footerHeight?: number;
}

export interface OpenPdf {
  doc: PDFKit.PDFDocument;
  text: PdfText;
  cursor: PdfCursor;
  /** Ends the document and resolves with its bytes. */
  finish(): Promise<Buffer>;
}

export function openPdf(options: OpenPdfOptions): OpenPdf {
  const doc = new PDFDocument({
    size: options.page.size,
    margin: options.page.margin,
    ...(options.bufferPages ? { bufferPages: true } : {}),
    ...(options.compress === undefined ? {} : { compress: options.compress }),
    info: options.info,
    lang: options.language,
  } as PDFKit.PDFDocumentOptions);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = new PdfText(doc, options.language);
  return {
    doc,
    text,
    cursor: new PdfCursor(doc, text, options.page, options.footerHeight ?? 0),
    finish() {
      doc.end();
      return done;
    },
  };
}

/** Where the next line goes: `y` moves down the page; `ensure` starts a new page before the footer's room. */
export class PdfCursor {
  y: number;
  readonly left: number;
  readonly right: number;
  readonly width: number;
  /** The lowest a line may reach: above the margin and the footer's room. */
  readonly bottom: number;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly text: PdfText,
    private readonly page: PageSize,
    footerHeight: number,
  ) {
    this.left = page.margin;
    this.right = page.width - page.margin;
    this.width = this.right - this.left;
    this.bottom = page.height - page.margin - footerHeight;
    this.y = page.margin;
  }

  newPage() {
    this.doc.addPage();
    this.y = this.page.margin;
  }

  /** A new page when `height` more would pass the bottom. */
  ensure(height: number) {
    if (this.y + height > this.bottom) this.newPage();
  }

  /** A thin line across the page at `at` (the cursor's height unless given). */
  rule(at = this.y, color: string = pdfColors.rule) {
    this.doc.moveTo(this.left, at).lineTo(this.right, at).lineWidth(0.6).strokeColor(color).stroke();
  }

  /**
   * A wrapped paragraph from `x` (the left margin unless given), `gap` below it; each line moves to a new
   * page first when it would pass the bottom, unless `breaks` is false (a one-page document).
   */
  paragraph(
    value: string,
    style: TextStyle,
    options: { x?: number; maxWidth?: number; gap?: number; breaks?: boolean } = {},
  ) {
    const x = options.x ?? this.left;
    const lines = this.text.wrap(value, options.maxWidth ?? this.right - x, style);
    for (const line of lines) {
      if (options.breaks !== false) this.ensure(this.text.lineHeight(style));
      this.text.draw(line, x, this.y, style);
      this.y += this.text.lineHeight(style);
    }
    this.y += options.gap ?? 0;
  }
}

/**
 * The footer on every page kept open (`bufferPages`): a rule, the footer text wrapped on the left and the
 * page label ("Page 2 of 3") on the right, its first line `top` points from the top of the page.
 */
export function drawPageFooters(
  { doc, text }: Pick<OpenPdf, 'doc' | 'text'>,
  page: PageSize,
  options: {
    top: number;
    footer: string;
    pageLabel: (page: number, pages: number) => string;
    style: TextStyle;
  },
) {
  const range = doc.bufferedPageRange();
  const left = page.margin;
  const right = page.width - page.margin;
  const { top, style } = options;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc
      .moveTo(left, top - 6)
      .lineTo(right, top - 6)
      .lineWidth(0.6)
      .strokeColor(pdfColors.rule)
      .stroke();
    const label = options.pageLabel(i - range.start + 1, range.count);
    const labelWidth = text.width(label, style) + 4;
    const lines = text.wrap(options.footer, right - left - labelWidth - 16, style);
    lines.forEach((line, n) => {
      text.draw(line, left, top + n * text.lineHeight(style), style);
    });
    text.draw(label, right - labelWidth, top, style, { align: 'right', width: labelWidth });
  }
}
