/** The largest picture a borrower may upload (SPEC §5), checked in the browser and on the server. */
export const pictureMaxBytes = 10 * 1024 * 1024;

export type PictureKind = 'jpeg' | 'png' | 'webp';

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What the first bytes say the file is, whatever its name or declared type (SPEC §5). */
export function sniffPicture(head: Uint8Array): PictureKind | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && pngSignature.every((byte, i) => head[i] === byte)) return 'png';
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}
