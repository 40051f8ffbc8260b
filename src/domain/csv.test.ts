import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, describeChanges } from './csv';

/** A small RFC 4180 parser, to check that what we write reads back as what we meant. */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let cell = '';
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else cell += line[i++];
      }
      cells.push(cell);
      i++; // comma
    } else {
      const end = line.indexOf(',', i);
      const stop = end === -1 ? line.length : end;
      cells.push(line.slice(i, stop));
      i = stop + 1;
    }
  }
  return cells;
}

describe('csv', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('defuses spreadsheet formulas', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });

  it('round-trips any text (after the formula guard)', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 6 }), (cells) => {
        const line = csvLine(cells);
        expect(line.endsWith('\r\n')).toBe(true);
        const parsed = parseCsvLine(line.slice(0, -2));
        const expected = cells.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c));
        expect(parsed).toEqual(expected);
      }),
    );
  });

  it('describes changed fields as before → after', () => {
    expect(
      describeChanges({
        status: { before: 'pending', after: 'approved' },
        note: { before: null, after: 'x' },
      }),
    ).toBe('status: pending → approved; note: — → x');
  });
});
