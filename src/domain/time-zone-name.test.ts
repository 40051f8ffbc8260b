import { describe, expect, it } from 'vitest';
import { timeZonePlaceName } from './time-zone-name';

describe('timeZonePlaceName (issue #36)', () => {
  it('names the lender’s time zone by its place in each language, never "Asia/Manila"', () => {
    expect(timeZonePlaceName('en', 'Asia/Manila')).toBe('Philippine Standard Time');
    expect(timeZonePlaceName('fil', 'Asia/Manila')).toBe('Standard na Oras sa Pilipinas');
    expect(timeZonePlaceName('zh', 'Asia/Manila')).toBe('菲律宾标准时间');
    expect(timeZonePlaceName('km', 'Asia/Manila')).toContain('ហ្វីលីពីន');
  });

  it('names another zone through Intl in the reader’s language', () => {
    expect(timeZonePlaceName('en', 'Asia/Phnom_Penh')).toBe('Indochina Time');
    expect(timeZonePlaceName('zh', 'Asia/Phnom_Penh')).toBe('中南半岛时间');
    expect(timeZonePlaceName('fil', 'Asia/Phnom_Penh')).toBe('Oras sa Indochina');
    for (const language of ['en', 'fil', 'zh', 'km'] as const) {
      expect(timeZonePlaceName(language, 'Asia/Phnom_Penh')).not.toContain('/');
    }
  });
});
