import { describe, expect, it } from 'vitest';
import { drawPageFooters, openPdf, pageSizes } from './pdf-layout';

const info = { Title: 'Test', CreationDate: new Date('2026-11-28T00:00:00Z') };

describe('the shared PDF layout', () => {
  it('moves to a new page before a line would reach the footer, and footers every page', async () => {
    const pdf = openPdf({ page: pageSizes.a4, language: 'en', info, bufferPages: true, footerHeight: 40 });
    const style = { size: 10 };
    const lineHeight = pdf.text.lineHeight(style);
    const perPage = Math.floor((pdf.cursor.bottom - pageSizes.a4.margin) / lineHeight);
    for (let i = 0; i < perPage + 1; i++) pdf.cursor.paragraph(`Line ${i}`, style);
    expect(pdf.doc.bufferedPageRange().count).toBe(2);
    expect(pdf.cursor.y).toBe(pageSizes.a4.margin + lineHeight);
    const labels: string[] = [];
    drawPageFooters(pdf, pageSizes.a4, {
      top: 780,
      footer: 'Questions? help@example.com',
      pageLabel: (page, pages) => {
        const label = `Page ${page} of ${pages}`;
        labels.push(label);
        return label;
      },
      style: { size: 8 },
    });
    expect(labels).toEqual(['Page 1 of 2', 'Page 2 of 2']);
    const bytes = await pdf.finish();
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('keeps a one-page document on its page when asked (a receipt)', async () => {
    const pdf = openPdf({ page: pageSizes.a5, language: 'en', info });
    for (let i = 0; i < 200; i++) pdf.cursor.paragraph(`Line ${i}`, { size: 10 }, { breaks: false });
    expect(pdf.cursor.y).toBeGreaterThan(pageSizes.a5.height);
    await pdf.finish();
  });
});
