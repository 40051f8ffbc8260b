import { describe, expect, it } from 'vitest';
import { checkPicture, maxPictureBytes } from './picture-check';

const bytes = (...values: number[]) => new Uint8Array(values);
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

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
