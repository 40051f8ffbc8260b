/** The server's limit (src/server/storage/images.ts); checked here too so a borrower learns at once. */
export const maxPictureBytes = 10 * 1024 * 1024;

export const acceptedPictureTypes = 'image/jpeg,image/png,image/webp';

export type PictureKind = 'jpeg' | 'png' | 'webp';

/** What the first bytes say the file is, whatever its name or declared type (SPEC §5). */
export function sniffPicture(head: Uint8Array): PictureKind | null {
  const at = (i: number) => head[i];
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'jpeg';
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => at(i) === byte)) return 'png';
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Blob.arrayBuffer where there is one, else FileReader (older WebViews, jsdom). */
function readBytes(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/** The error code for a picked file, or null when it is a JPEG, PNG or WebP of at most 10 MB. */
export async function checkPicture(file: Blob): Promise<'IMAGE_TOO_LARGE' | 'IMAGE_INVALID' | null> {
  if (file.size > maxPictureBytes) return 'IMAGE_TOO_LARGE';
  if (file.size === 0) return 'IMAGE_INVALID';
  const head = await readBytes(file.slice(0, 12)).catch(() => null);
  return head && sniffPicture(head) ? null : 'IMAGE_INVALID';
}
