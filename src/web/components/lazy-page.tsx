import { Center, Loader } from '@mantine/core';
import { type ComponentType, lazy, Suspense } from 'react';
import { loadStaffStrings } from '../lib/i18n';

/**
 * A route's page as a chunk of its own, fetched when the page is first opened: the first load of /login
 * carries no wallet, account or application code. A small spinner holds the page's place meanwhile.
 */
export function lazyPage(load: () => Promise<ComponentType>) {
  const Page = lazy(() => load().then((component) => ({ default: component })));
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      }
    >
      <Page />
    </Suspense>
  );
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
