import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductDetailDto, ProductDto, ProductTermsInput } from '../../../../domain/schemas/products';
import { apiFetch } from '../../../lib/api';
import { useStaffMutation } from '../../../lib/staff/use-staff-mutation';

export type { ProductDetailDto, ProductDto, ProductTermsInput };

const productKeys = {
  all: ['back-office', 'products'] as const,
  one: (id: string) => ['back-office', 'products', id] as const,
};

export const productListQuery = queryOptions({
  queryKey: productKeys.all,
  queryFn: () => apiFetch<{ items: ProductDto[] }>('/api/staff/products'),
});

export const productQuery = (id: string) =>
  queryOptions({
    queryKey: productKeys.one(id),
    queryFn: () => apiFetch<ProductDetailDto>(`/api/staff/products/${encodeURIComponent(id)}`),
  });

export function useProducts() {
  return useQuery(productListQuery);
}

export function useProduct(id: string) {
  return useQuery(productQuery(id));
}

/** After a save: the list and this product are read again (the answer is the product as saved). */
const refresh = (queryClient: QueryClient, saved?: ProductDetailDto) => {
  if (saved) queryClient.setQueryData(productKeys.one(saved.id), saved);
  return queryClient.invalidateQueries({ queryKey: productKeys.all });
};

/** Someone else saved a newer version first: the screen was out of date. */
const conflictCodes = ['PRODUCT_VERSION_OUTDATED', 'PRODUCT_ALREADY_RETIRED', 'PRODUCT_ALREADY_ACTIVE'];

/** A new product: version 1, offered at once. */
export function useCreateProduct() {
  return useStaffMutation({
    mutationFn: (body: { code: string; terms: ProductTermsInput }) =>
      apiFetch<ProductDetailDto>('/api/staff/products', { method: 'POST', body }),
    refresh,
    conflictCodes: [],
  });
}

/** An edit: the new terms become the product's next version. */
export function useSaveProductVersion() {
  return useStaffMutation({
    mutationFn: ({
      id,
      ...body
    }: {
      id: string;
      basedOnVersion: number;
      terms: ProductTermsInput;
      reason?: string;
    }) =>
      apiFetch<ProductDetailDto>(`/api/staff/products/${encodeURIComponent(id)}/versions`, {
        method: 'POST',
        body,
      }),
    refresh,
    conflictCodes,
  });
}

/** Retire (no new applications) or offer again: a new version with a reason. */
export function useChangeProductStatus() {
  return useStaffMutation({
    mutationFn: ({
      id,
      action,
      ...body
    }: {
      id: string;
      action: 'retire' | 'reactivate';
      basedOnVersion: number;
      reason: string;
    }) =>
      apiFetch<ProductDetailDto>(`/api/staff/products/${encodeURIComponent(id)}/${action}`, {
        method: 'POST',
        body,
      }),
    refresh,
    conflictCodes,
  });
}
