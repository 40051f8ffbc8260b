import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acceptedLanguages, appPageTexts, localizeAppPage } from './app-page';

describe('the app page in the browser’s language (issue #36)', () => {
  it('reads Accept-Language best first, by q, leaving out q=0 and *', () => {
    expect(acceptedLanguages('de-DE, en;q=0.5, fil;q=0.8, km;q=0, *;q=0.1')).toEqual(['de-DE', 'fil', 'en']);
    expect(acceptedLanguages('zh-CN,zh;q=0.9')).toEqual(['zh-CN', 'zh']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    // A weight that is no number is read as none given.
    expect(acceptedLanguages('en;q=oops')).toEqual(['en']);
  });

  it.each(['fil', 'zh', 'km'] as const)('writes the repository’s index.html in %s', (language) => {
    const source = readFileSync(new URL('../../../index.html', import.meta.url), 'utf8');
    const page = localizeAppPage(source, language);
    expect(page).toContain(`<html lang="${language}"`);
    expect(page).toContain(`<meta name="description" content="${appPageTexts[language].description}" />`);
    expect(page).toContain(`<noscript>${appPageTexts[language].noscript}</noscript>`);
    expect(page).not.toContain(appPageTexts.en.description);
    expect(page).not.toContain(appPageTexts.en.noscript);
    // Nothing else changes: the boot script and its CSP hash stay as built.
    expect(page.replace(/\s+/g, '').length).toBeGreaterThan(source.replace(/\s+/g, '').length - 80);
    expect(page).toContain('<!-- boot-script -->');
  });
});
