import { Center, Loader } from '@mantine/core';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { loadStaffStrings } from '../lib/i18n';

const preloaders: { paths: readonly string[]; preload: () => Promise<unknown> }[] = [];

interface LazyPageEntry {
  /** Set once the chunk is in: the page then renders at once, with no Suspense fallback. */
  loaded?: ComponentType;
  Lazy: LazyExoticComponent<ComponentType>;
}

function LazyPageView({ entry }: { entry: LazyPageEntry }) {
  const { loaded: Loaded, Lazy } = entry;
  if (Loaded) return <Loaded />;
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      }
    >
      <Lazy />
    </Suspense>
  );
}

interface LazyPageOptions {
  /** The paths on which main.tsx fetches the chunk at start (`preloadPagesFor`). */
  preloadOn?: readonly string[];
  /** Strings of its own the page waits for (`loadWalletStrings`), so it never shows a raw key. */
  strings?: () => Promise<void>;
}

/**
 * A route's page as a chunk of its own: the first load of /login carries no wallet, account or application
 * code, and a signed-in borrower's first load carries no sign-in forms. `preloadOn` names the paths on
 * which main.tsx starts fetching the chunk at once (`preloadPagesFor`), alongside the language and the
 * session rather than after them; a page whose chunk is in by the time it renders shows no spinner at all.
 */
export function lazyPage(load: () => Promise<ComponentType>, options: LazyPageOptions = {}) {
  return lazyPageWithPreload(load, options).page;
}

/**
 * `lazyPage`, and the function that fetches its chunk: for a page the app decides to show before its first
 * render (the consent card, once the session says it is due), so that render is the page itself.
 */
export function lazyPageWithPreload(load: () => Promise<ComponentType>, options: LazyPageOptions = {}) {
  let loading: Promise<ComponentType> | undefined;
  const preload = () => {
    loading ??= Promise.all([load(), options.strings?.()]).then(
      ([component]) => {
        entry.loaded = component;
        return component;
      },
      (error: unknown) => {
        // A failed fetch (e.g. the network dropped) is tried again on the next render.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const entry: LazyPageEntry = { Lazy: lazy(() => preload().then((component) => ({ default: component }))) };
  if (options.preloadOn) preloaders.push({ paths: options.preloadOn, preload });
  return { page: <LazyPageView entry={entry} />, preload };
}

/**
 * Starts fetching the chunks of the pages registered for this path, trailing slash aside (see `lazyPage`);
 * settles when they are in (or failed: the page then tries again when it renders).
 */
export async function preloadPagesFor(pathname: string): Promise<void> {
  const path = pathname.replace(/(.)\/+$/, '$1');
  const matching = preloaders.filter((page) => page.paths.includes(path));
  await Promise.all(matching.map((page) => page.preload().catch(() => undefined)));
}

/**
 * A staff screen's component, fetched with the back office's strings (`loadStaffStrings`): it renders only
 * once both are in, so staff never see a raw key.
 */
export function lazyStaffComponent(load: () => Promise<ComponentType>) {
  return lazy(async () => {
    const [component] = await Promise.all([load(), loadStaffStrings()]);
    return { default: component };
  });
}
