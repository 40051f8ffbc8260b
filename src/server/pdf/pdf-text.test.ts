import { describe, expect, it } from 'vitest';
import { breakPieces, fontRuns, shapedGlyphs } from './pdf-text';

describe('fontRuns', () => {
  it('draws each character with the first font that has it, spaces and punctuation staying with their text', () => {
    expect(fontRuns('Maria 王小明, សុខ ចាន់ណា ₱1.00')).toEqual([
      { text: 'Maria ', family: 'latin' },
      { text: '王小明, ', family: 'han' },
      { text: 'សុខ ចាន់ណា ', family: 'khmer' },
      { text: '₱1.00', family: 'latin' },
    ]);
  });

  it('keeps Khmer subscripts and vowel signs in the Khmer run, and leaves out what no font has', () => {
    expect(fontRuns('ស្ត្រី\ue000')).toEqual([{ text: 'ស្ត្រី', family: 'khmer' }]);
  });
});

describe('shaping (HarfBuzz)', () => {
  it('puts a Khmer pre-base vowel before its consonant and stacks a subscript, as browsers do', () => {
    // "លេ": LO + vowel sign E. The vowel is written after the consonant but drawn before it.
    const le = shapedGlyphs('លេ', 'khmer');
    const lo = shapedGlyphs('ល', 'khmer')[0]!.id;
    expect(le).toHaveLength(2);
    expect(le[0]!.id).not.toBe(lo);
    expect(le[1]!.id).toBe(lo);
    // "ក្រ": KA + coeng + RO: the subscript RO is one glyph drawn around KA, not a visible coeng sign.
    const kra = shapedGlyphs('ក្រ', 'khmer');
    expect(kra.length).toBeLessThan(3);
    // The text of a cluster is carried once, so copying it out of the PDF gives it back.
    expect(kra.flatMap((g) => g.codePoints)).toEqual([...'ក្រ'].map((c) => c.codePointAt(0)));
  });

  it('shapes Latin one glyph per letter with the letters as their text', () => {
    const glyphs = shapedGlyphs('HL-26', 'latin');
    expect(glyphs.map((g) => String.fromCodePoint(...g.codePoints)).join('')).toBe('HL-26');
  });
});

describe('breakPieces', () => {
  it('breaks at spaces, never inside an amount or a reference', () => {
    expect(breakPieces('ref. GC-1001\u00a0· interest ₱1,811.29', 'en')).toEqual([
      'ref. ',
      'GC-1001\u00a0· ',
      'interest ',
      '₱1,811.29',
    ]);
  });

  it('breaks between words of Khmer and Chinese, which are written without spaces', () => {
    expect(breakPieces('ការប្រាក់បង្គរដល់ថ្ងៃនេះ', 'km').length).toBeGreaterThan(1);
    expect(breakPieces('ការប្រាក់បង្គរដល់ថ្ងៃនេះ', 'km').join('')).toBe('ការប្រាក់បង្គរដល់ថ្ងៃនេះ');
    expect(breakPieces('对本对账单有疑问', 'zh').length).toBeGreaterThan(1);
  });
});
