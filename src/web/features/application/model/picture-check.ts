import { pictureMaxBytes, sniffPicture } from '../../../../domain/images';

/** The server's limit too (src/server/storage/images.ts); checked here so a borrower learns at once. */
export const maxPictureBytes = pictureMaxBytes;

export const acceptedPictureTypes = 'image/jpeg,image/png,image/webp';

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
