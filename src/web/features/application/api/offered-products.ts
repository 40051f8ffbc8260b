import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OfferedProduct, OfferedProductsResponse } from '../../../../domain/schemas/offered-products';
import { ApiError, apiFetch } from '../../../lib/api';

export type { OfferedProduct };

export const offeredProductsQueryKey = ['products', 'offered'] as const;

async function fetchOfferedProducts(): Promise<OfferedProductsResponse> {
  // The schema (and zod) with the answer rather than in main.js, as the settings' (lib/settings.ts).
  const [{ offeredProductsResponse }, body] = await Promise.all([
    import('../../../../domain/schemas/offered-products'),
    apiFetch<unknown>('/api/products'),
  ]);
  const parsed = offeredProductsResponse.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({
      code: 'BAD_RESPONSE',
      message: 'The products are not what the app expects.',
      status: 200,
    });
  }
  return parsed.data;
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
