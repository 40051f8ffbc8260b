import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A real photo-like JPEG carrying GPS coordinates and a camera model in its EXIF. */
export async function jpegWithGps(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><rect x="40" y="40" width="${width / 2}" height="${height / 3}" fill="#fff"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'HiramTestCam', Model: 'Secret Model 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '14/1 35/1 4/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '120/1 59/1 3/1',
      },
    })
    .toBuffer();
}

export function pngPhoto(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 220, g: 180, b: 90 } } })
    .png()
    .toBuffer();
}

export function webpPhoto(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 180, b: 120 } } })
    .webp()
    .toBuffer();
}

/** A drawn signature: a dark stroke on a transparent canvas, as signature_pad exports it. */
export function signaturePng(): Promise<Buffer> {
  return sharp(
    Buffer.from(
      '<svg width="600" height="150" xmlns="http://www.w3.org/2000/svg"><path d="M20 120 C 120 10, 220 140, 320 40 S 520 120, 580 60" stroke="#111" stroke-width="4" fill="none"/></svg>',
    ),
  )
    .png()
    .toBuffer();
}

/** A transparent canvas with nothing drawn on it. */
export function blankSignaturePng(): Promise<Buffer> {
  return sharp({
    create: { width: 600, height: 150, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .png()
    .toBuffer();
}

export const pdfBytes = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

export const svgBytes = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script><rect width="100" height="100"/></svg>',
);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([length, typeAndData, crc]);
}

/** A few hundred bytes that declare a 50,000 × 50,000 canvas: decoding it would need gigabytes. */
export function pixelFloodPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(50_000, 0);
  ihdr.writeUInt32BE(50_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface MultipartFile {
  name: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Builds a multipart/form-data body by hand, so tests control every byte (names, types, sizes). */
export function multipartBody(fields: Record<string, string>, files: MultipartFile[]) {
  const boundary = `----hiram${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        'utf8',
      ),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
        'utf8',
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
