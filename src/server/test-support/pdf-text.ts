import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Reads PDFs the app answered as a person would copy them: with poppler's pdftotext (and pdfimages for what
 * is drawn in), from files in one temporary folder that `close` removes. poppler-utils is installed by
 * .ci/run.
 */
export async function pdfReader(prefix: string) {
  const dir = await mkdtemp(join(tmpdir(), `hiram-${prefix}-`));
  let files = 0;
  const saved = async (pdf: Buffer) => {
    const path = join(dir, `${++files}.pdf`);
    await writeFile(path, pdf);
    return path;
  };
  return {
    /** The text, page by page, in reading order (`-layout`). */
    text: async (pdf: Buffer) =>
      (await run('pdftotext', ['-layout', '-enc', 'UTF-8', await saved(pdf), '-'])).stdout,
    /** pdfimages' list of the images in it. */
    images: async (pdf: Buffer) => (await run('pdfimages', ['-list', await saved(pdf)])).stdout,
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

export type PdfReader = Awaited<ReturnType<typeof pdfReader>>;
