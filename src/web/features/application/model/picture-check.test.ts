import { describe, expect, it } from 'vitest';
import { checkPicture, maxPictureBytes, sniffPicture } from './picture-check';

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('sniffPicture', () => {
  it('knows JPEG, PNG and WebP by their first bytes', () => {
    expect(sniffPicture(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(sniffPicture(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('png');
    expect(sniffPicture(ascii('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('webp');
  });

  it('refuses everything else, however it is named', () => {
    expect(sniffPicture(ascii('%PDF-1.7\n%'))).toBeNull();
    expect(sniffPicture(ascii('GIF89a'))).toBeNull();
    expect(sniffPicture(ascii('RIFF\x10\x00\x00\x00WAVE'))).toBeNull();
    expect(sniffPicture(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull(); // truncated PNG signature
    expect(sniffPicture(bytes())).toBeNull();
  });
});

describe('checkPicture', () => {
  it('accepts a real JPEG and refuses a PDF renamed .jpg', async () => {
    const jpeg = new File([bytes(0xff, 0xd8, 0xff, 0xdb, 1, 2, 3)], 'id.jpg', { type: 'image/jpeg' });
    const pdf = new File([ascii('%PDF-1.4 fake')], 'id.jpg', { type: 'image/jpeg' });
    expect(await checkPicture(jpeg)).toBeNull();
    expect(await checkPicture(pdf)).toBe('IMAGE_INVALID');
    expect(await checkPicture(new File([], 'empty.png', { type: 'image/png' }))).toBe('IMAGE_INVALID');
  });

  it('refuses more than 10 MB before reading it', async () => {
    const big = { size: maxPictureBytes + 1, slice: () => new Blob() } as unknown as Blob;
    expect(await checkPicture(big)).toBe('IMAGE_TOO_LARGE');
    const exact = new File([new Uint8Array(maxPictureBytes).fill(0xff, 0, 3).fill(0xd8, 1, 2)], 'ok.jpg');
    expect(await checkPicture(exact)).toBeNull();
  });
});
