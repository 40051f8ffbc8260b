import type { Metadata } from 'sharp';
import { AppError, type ErrorCode } from '../../domain/errors';
import { pictureMaxBytes, sniffPicture } from '../../domain/images';

export const imagePolicy = {
  maxBytes: pictureMaxBytes,
  /** Pixel-flood guard: a tiny file can declare a gigantic canvas; refuse before decoding it. */
  maxPixels: 40_000_000,
  /** Stored photos are scaled down to fit this box: plenty to read an ID card, kind to cheap phones. */
  maxDimension: 2400,
} as const;

export type ImageKind = 'photo' | 'signature';

export interface SanitizedImage {
  data: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  extension: 'jpg' | 'png';
  width: number;
  height: number;
}

/**
 * Checks an uploaded picture by content and re-encodes it: auto-rotated by its EXIF orientation, then
 * written fresh without any metadata (no GPS, camera or time stamps survive). Photos become JPEG, the
 * signature PNG (it has transparency and hard edges).
 */
export async function sanitizeImage(data: Buffer, kind: ImageKind): Promise<SanitizedImage> {
  const fail = (code: ErrorCode): never => {
    throw new AppError(code);
  };
  if (data.length === 0) fail(kind === 'signature' ? 'SIGNATURE_REQUIRED' : 'IMAGE_INVALID');
  if (data.length > imagePolicy.maxBytes) fail('IMAGE_TOO_LARGE');
  const sniffed = sniffPicture(data) ?? fail('IMAGE_INVALID');

  // Loaded by the first upload, not at start-up (issue #35).
  const { default: sharp } = await import('sharp');
  let metadata: Metadata;
  try {
    metadata = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    return fail('IMAGE_INVALID');
  }
  if (metadata.format !== sniffed || !metadata.width || !metadata.height) fail('IMAGE_INVALID');
  if (metadata.width! * metadata.height! > imagePolicy.maxPixels || (metadata.pages ?? 1) > 1) {
    fail('IMAGE_TOO_MANY_PIXELS');
  }

  try {
    const pipeline = sharp(data, { limitInputPixels: imagePolicy.maxPixels, failOn: 'error' })
      .rotate()
      .resize({
        width: imagePolicy.maxDimension,
        height: imagePolicy.maxDimension,
        fit: 'inside',
        withoutEnlargement: true,
      });
    if (kind === 'signature') {
      const { data: out, info } = await pipeline
        .png({ compressionLevel: 9 })
        .toBuffer({ resolveWithObject: true });
      if (await isBlank(out)) fail('SIGNATURE_REQUIRED');
      return {
        data: out,
        contentType: 'image/png',
        extension: 'png',
        width: info.width,
        height: info.height,
      };
    }
    const { data: out, info } = await pipeline
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { data: out, contentType: 'image/jpeg', extension: 'jpg', width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    return fail('IMAGE_INVALID');
  }
}

/** A signature with no ink: every pixel is the same (fully transparent or one flat colour). */
async function isBlank(png: Buffer): Promise<boolean> {
  const { default: sharp } = await import('sharp');
  const stats = await sharp(png).stats();
  return stats.channels.every((channel) => channel.min === channel.max);
}
