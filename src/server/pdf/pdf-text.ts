import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import * as hb from 'harfbuzzjs';

/**
 * Text for PDFs in English, Chinese and Khmer. pdfkit draws and embeds (subsetting each font to the glyphs
 * used), but its own shaping (fontkit) gets Khmer wrong and even throws on Noto Sans Khmer's mark
 * positioning, so every run is shaped by HarfBuzz (the engine browsers use) and pdfkit is handed the shaped
 * glyphs. Each character is drawn with the first font that has it (Latin, then Khmer, then Chinese), so a
 * Khmer statement can still show a Chinese name; the Chinese font (10 MB) is read only when needed.
 * The fonts are Google's Noto fonts from npm packages, so a fresh `npm install` has them.
 */

type Weight = 'regular' | 'bold';
const fontFiles = {
  latin: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  },
  khmer: {
    regular: '@expo-google-fonts/noto-sans-khmer/400Regular/NotoSansKhmer_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-khmer/700Bold/NotoSansKhmer_700Bold.ttf',
  },
  han: {
    regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  },
} as const;
type Family = keyof typeof fontFiles;
const fallbackOrder: Family[] = ['latin', 'khmer', 'han'];

const resolveModule = createRequire(import.meta.url).resolve;

/** A glyph as pdfkit's embedded font reads it: id, the font's own advance, the text it stands for. */
interface ShapedGlyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

interface LoadedFont {
  /** The name it is registered under in each document. */
  name: string;
  /** fontkit's font, with `layout` replaced by HarfBuzz shaping; pdfkit embeds and subsets it. */
  font: fontkit.Font;
}

const loaded = new Map<string, LoadedFont>();

/** One HarfBuzz buffer, reused: shaping is synchronous, so no two runs ever share it at once. */
let sharedBuffer: hb.Buffer | null = null;

function shapeWith(font: fontkit.Font, shaper: hb.Font) {
  return (text: string) => {
    sharedBuffer ??= new hb.Buffer();
    const buffer = sharedBuffer;
    buffer.clearContents();
    buffer.addText(text);
    buffer.guessSegmentProperties();
    hb.shape(shaper, buffer);
    const infos = buffer.getGlyphInfos();
    const positions = buffer.getGlyphPositions();
    // Clusters are UTF-16 offsets into `text`; the first glyph of each cluster carries its characters, so
    // copying text out of the PDF gives the text back.
    const starts = [...new Set(infos.map((info) => info.cluster))].sort((a, b) => a - b);
    const seen = new Set<number>();
    const glyphs: ShapedGlyph[] = infos.map((info) => {
      let codePoints: number[] = [];
      if (!seen.has(info.cluster)) {
        seen.add(info.cluster);
        const end = starts.find((start) => start > info.cluster) ?? text.length;
        codePoints = [...text.slice(info.cluster, end)].map((c) => c.codePointAt(0)!);
      }
      return { id: info.codepoint, advanceWidth: font.getGlyph(info.codepoint).advanceWidth, codePoints };
    });
    const scaled = positions.map((p) => ({
      xAdvance: p.xAdvance,
      yAdvance: p.yAdvance,
      xOffset: p.xOffset,
      yOffset: p.yOffset,
    }));
    return {
      glyphs,
      positions: scaled,
      // pdfkit scales the positions in place, then reads the run's width.
      get advanceWidth() {
        return scaled.reduce((sum, p) => sum + p.xAdvance, 0);
      },
    };
  };
}

function loadFont(family: Family, weight: Weight): LoadedFont {
  const key = `${family}-${weight}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  const data = readFileSync(resolveModule(fontFiles[family][weight]));
  const font = fontkit.create(data) as fontkit.Font;
  if (!('layout' in font)) throw new Error(`${key} is a font collection`);
  const shaper = new hb.Font(new hb.Face(new hb.Blob(data)));
  (font as { layout: unknown }).layout = shapeWith(font, shaper);
  const entry: LoadedFont = { name: key, font };
  loaded.set(key, entry);
  return entry;
}

/** The glyphs HarfBuzz gives for a run in one of the fonts (what pdfkit then draws). */
export function shapedGlyphs(text: string, family: Family, weight: Weight = 'regular'): ShapedGlyph[] {
  const { font } = loadFont(family, weight);
  return (font.layout(text) as unknown as { glyphs: ShapedGlyph[] }).glyphs;
}

/** A run of text drawn with one font. */
interface Run {
  text: string;
  family: Family;
}

/** Spaces and punctuation stay in the font of the text around them, when it has them. */
const neutral = /^[\p{Zs}\p{P}]$/u;

/** The text cut into runs, each in the first font (Latin, Khmer, Chinese) that has its characters. */
export function fontRuns(text: string, weight: Weight = 'regular'): Run[] {
  const runs: Run[] = [];
  let current: Family | null = null;
  const has = (family: Family, codePoint: number) =>
    loadFont(family, weight).font.hasGlyphForCodePoint(codePoint);
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    let family: Family | undefined;
    if (current !== null && (neutral.test(char) || /\p{M}/u.test(char)) && has(current, codePoint)) {
      family = current;
    } else {
      family = fallbackOrder.find((f) => has(f, codePoint));
    }
    // No font has it (e.g. a zero-width space): leave it out rather than draw a box.
    if (family === undefined) continue;
    const last = runs[runs.length - 1];
    if (last && last.family === family) last.text += char;
    else runs.push({ text: char, family });
    current = family;
  }
  return runs;
}

export interface TextStyle {
  size: number;
  bold?: boolean;
  color?: string;
}

const words = new Map<string, Intl.Segmenter>();

/** Scripts written without spaces between words: a line may break between any two of their words. */
const unspaced = /[\p{Script=Han}\p{Script=Khmer}\u3000-\u303f\uff00-\uffef]/u;

/**
 * Where a line may break: at spaces, and between words of Chinese and Khmer (ICU's dictionary-based word
 * boundaries). Elsewhere pieces stay together, so "₱1,811.29" or "GC-1001" is never split.
 */
export function breakPieces(text: string, language: string): string[] {
  let segmenter = words.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: 'word' });
    words.set(language, segmenter);
  }
  const pieces: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    const previous = pieces[pieces.length - 1];
    const before = previous?.slice(-1) ?? '';
    const after = segment.charAt(0);
    const canBreak =
      previous === undefined || /[^\S\u00a0]/.test(before) || (unspaced.test(before) && unspaced.test(after));
    if (canBreak) pieces.push(segment);
    else pieces[pieces.length - 1] = previous + segment;
  }
  return pieces;
}

/** Measures, wraps and draws text on one pdfkit document, baselines aligned across fonts. */
export class PdfText {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly language: string,
  ) {}

  private use(family: Family, style: TextStyle): LoadedFont {
    const font = loadFont(family, style.bold ? 'bold' : 'regular');
    if (!(font.name in this.registered)) {
      this.doc.registerFont(font.name, font.font as unknown as PDFKit.Mixins.PDFFontSource);
      this.registered[font.name] = true;
    }
    this.doc.font(font.name).fontSize(style.size);
    return font;
  }

  private readonly registered: Record<string, true> = {};

  /** Width in points. */
  width(text: string, style: TextStyle): number {
    let width = 0;
    for (const run of fontRuns(text, style.bold ? 'bold' : 'regular')) {
      this.use(run.family, style);
      width += this.doc.widthOfString(run.text);
    }
    return width;
  }

  /** Distance from one baseline to the next: Khmer needs room for its subscripts and vowels above. */
  lineHeight(style: TextStyle): number {
    return style.size * (this.language === 'km' ? 1.75 : 1.4);
  }

  /** Draws one line with its top at `top`; `align: 'right'` ends it at x + width. */
  draw(
    text: string,
    x: number,
    top: number,
    style: TextStyle,
    options: { align?: 'left' | 'right'; width?: number } = {},
  ) {
    const weight = style.bold ? 'bold' : 'regular';
    let cursor = x;
    if (options.align === 'right' && options.width !== undefined) {
      cursor = x + options.width - this.width(text, style);
    }
    const baseline = top + this.baselineOffset(style);
    this.doc.fillColor(style.color ?? '#111111');
    for (const run of fontRuns(text, weight)) {
      this.use(run.family, style);
      this.doc.text(run.text, cursor, baseline, { lineBreak: false, baseline: 'alphabetic' });
      cursor += this.doc.widthOfString(run.text);
    }
  }

  /** From the top of a line to its baseline (the same for every font on it). */
  baselineOffset(style: TextStyle): number {
    const extra = this.lineHeight(style) - style.size * 1.2;
    return extra / 2 + style.size * 0.95;
  }

  /** The text broken into lines no wider than `maxWidth`, at word boundaries where it can. */
  wrap(text: string, maxWidth: number, style: TextStyle): string[] {
    const lines: string[] = [];
    let line = '';
    const push = () => {
      if (line.trim() !== '') lines.push(line.trim());
      line = '';
    };
    for (const piece of breakPieces(text, this.language)) {
      const candidate = line + piece;
      if (this.width(candidate.trimEnd(), style) <= maxWidth) {
        line = candidate;
        continue;
      }
      push();
      if (this.width(piece.trim(), style) <= maxWidth) {
        line = piece.trimStart();
        continue;
      }
      // One word wider than the line: break it between characters (grapheme clusters).
      for (const { segment } of new Intl.Segmenter(this.language, { granularity: 'grapheme' }).segment(
        piece,
      )) {
        if (this.width(line + segment, style) > maxWidth) push();
        line += segment;
      }
    }
    push();
    return lines.length > 0 ? lines : [''];
  }
}
