import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OfferedProduct, OfferedProductsResponse } from '../../../../domain/schemas/offered-products';
import { apiFetch } from '../../../lib/api';

export type { OfferedProduct };

export const offeredProductsQueryKey = ['products', 'offered'] as const;

/**
 * Read as the server sends it: the server passes the answer through `offeredProductsResponse` on the way out
 * (as the settings', lib/settings.ts), so step 1 draws from it without fetching zod (docs/decisions/052).
 */
function fetchOfferedProducts(): Promise<OfferedProductsResponse> {
  return apiFetch<OfferedProductsResponse>('/api/products');
}

/**
 * The loan products offered to the signed-in borrower (GET /api/products; docs/decisions/034), each with the
 * amounts they may ask for. Step 1 shows no figure before it has arrived.
 */
export const offeredProductsQuery = queryOptions({
  queryKey: offeredProductsQueryKey,
  queryFn: fetchOfferedProducts,
  staleTime: 10_000,
});

export function useOfferedProducts() {
  return useQuery(offeredProductsQuery);
}
