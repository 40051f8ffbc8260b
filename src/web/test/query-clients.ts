import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from '../app/query-client';

/**
 * Every query client a test made. A prefetch has no observer, so unmounting does not stop it: one that
 * failed would retry a second later into the next test's fetch stub (a request the next test never made).
 * `disposeQueryClients` (after each test) cancels what is under way and empties them.
 */
const queryClients = new Set<QueryClient>();

export function testQueryClient(): QueryClient {
  const client = createQueryClient();
  queryClients.add(client);
  return client;
}

export async function disposeQueryClients() {
  for (const client of queryClients) {
    await client.cancelQueries();
    client.clear();
  }
  queryClients.clear();
}
