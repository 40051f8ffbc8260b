import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserLanguage, initialLanguage, languageStorageKey } from './i18n';

describe('browserLanguage', () => {
  it('takes the first preferred language the app ships', () => {
    expect(browserLanguage(['tl-PH', 'en'])).toBe('fil');
    expect(browserLanguage(['fil'])).toBe('fil');
    expect(browserLanguage(['FIL-PH'])).toBe('fil');
    expect(browserLanguage(['de-DE', 'zh-TW', 'en'])).toBe('zh');
    expect(browserLanguage(['km-KH', 'fil'])).toBe('km');
    expect(browserLanguage(['en-PH', 'fil-PH'])).toBe('en');
  });

  it('falls back to English when none is shipped', () => {
    expect(browserLanguage(['de'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
    // "fi" (Finnish) and "ta" (Tamil) are not Filipino or Tagalog.
    expect(browserLanguage(['fi-FI', 'ta'])).toBe('en');
  });
});

describe('initialLanguage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('follows the browser on a first visit', () => {
    window.localStorage.removeItem(languageStorageKey);
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['tl-PH', 'en']);
    expect(initialLanguage()).toBe('fil');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de']);
    expect(initialLanguage()).toBe('en');
  });

  it('keeps a stored choice over the browser', () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['tl-PH', 'en']);
    window.localStorage.setItem(languageStorageKey, 'zh');
    expect(initialLanguage()).toBe('zh');
    window.localStorage.setItem(languageStorageKey, 'en');
    expect(initialLanguage()).toBe('en');
  });
});
