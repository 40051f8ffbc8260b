import { describe, expect, it } from 'vitest';
import { sniffPicture } from './images';

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
