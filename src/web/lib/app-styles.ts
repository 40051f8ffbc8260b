/** Longest the first render waits for the stylesheet: past it, the page is better unstyled than missing. */
const STYLES_WAIT_MS = 10_000;

/**
 * Applies the stylesheets index.html only preloads (`data-app-styles`: vite.config.ts keeps them from
 * holding back the loading screen's first paint) and resolves once each has loaded or failed. A preloaded
 * sheet is already in the memory cache, so this is usually at once. In development Vite injects the styles
 * itself and there is nothing to wait for.
 */
export function applyAppStyles(doc: Document = document): Promise<void> {
  const links = [...doc.querySelectorAll<HTMLLinkElement>('link[data-app-styles]')];
  const applied = links.map(
    (link) =>
      new Promise<void>((resolve) => {
        link.addEventListener('load', () => resolve(), { once: true });
        link.addEventListener('error', () => resolve(), { once: true });
        link.rel = 'stylesheet';
      }),
  );
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, STYLES_WAIT_MS);
    void Promise.all(applied).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
