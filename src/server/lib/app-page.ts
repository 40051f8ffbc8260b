import { readFileSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Language, preferredLanguage } from '../../domain/languages';

/**
 * What index.html says before any script runs, in each language (issue #36): the search engines' and link
 * previews' description, and the line a browser without JavaScript shows.
 */
export const appPageTexts: Record<Language, { description: string; noscript: string }> = {
  en: { description: 'Hiram: honest online loans', noscript: 'Hiram needs JavaScript to run.' },
  fil: {
    description: 'Hiram: tapat na online na pautang',
    noscript: 'Kailangan ng Hiram ang JavaScript para gumana.',
  },
  zh: { description: 'Hiram：诚实透明的网上贷款', noscript: 'Hiram 需要启用 JavaScript 才能运行。' },
  km: { description: 'Hiram៖ កម្ចីអនឡាញដោយស្មោះត្រង់', noscript: 'Hiram ត្រូវការ JavaScript ដើម្បីដំណើរការ។' },
};

/** An Accept-Language header's languages, best first (by q, then as written); q=0 means "not this one". */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...options] = part.trim().split(';');
      const q = options.map((o) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(o)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter(({ tag, q }) => tag !== '' && tag !== '*' && q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
    .map(({ tag }) => tag);
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The page with its language, description and no-script line in `language`; everything else as built. */
export function localizeAppPage(html: string, language: Language): string {
  const texts = appPageTexts[language];
  return html
    .replace(/<html\b([^>]*?)\blang="[^"]*"/i, `<html$1lang="${language}"`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/i,
      `<meta name="description" content="${escapeHtml(texts.description)}" />`,
    )
    .replace(/<noscript>[\s\S]*?<\/noscript>/i, `<noscript>${escapeHtml(texts.noscript)}</noscript>`);
}

/**
 * The built app page in the language the browser asks for (Accept-Language), read from disk as it is now (a
 * rebuild is served without a restart) and kept per version of the file and language. Null while there is
 * no build. The pre-compressed copies beside it are not used: each language is its own page.
 */
export function appPages(webRoot: string) {
  const filePath = join(webRoot, 'index.html');
  const known = new Map<string, string>();
  let knownVersion = '';
  return (
    acceptLanguage: string | undefined,
  ): { html: string; language: Language; filePath: string; stat: Stats } | null => {
    let stat: Stats;
    let source: string | null = null;
    try {
      stat = statSync(filePath);
      const version = `${stat.size}:${stat.mtimeMs}`;
      if (version !== knownVersion) {
        source = readFileSync(filePath, 'utf8');
        known.clear();
        knownVersion = version;
        known.set('', source);
      }
    } catch {
      return null;
    }
    const language = preferredLanguage(acceptedLanguages(acceptLanguage));
    let html = known.get(language);
    if (html === undefined) {
      html = localizeAppPage(source ?? known.get('') ?? '', language);
      known.set(language, html);
    }
    return { html, language, filePath, stat };
  };
}
