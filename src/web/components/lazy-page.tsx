import { Center, Loader } from '@mantine/core';
import { type ComponentType, lazy, Suspense } from 'react';

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
