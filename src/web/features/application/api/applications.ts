import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Disclosure, disclosureSchema } from '../../../../domain/loan/disclosure';
import type { MyApplicationDto } from '../../../../domain/schemas/application';
import { ApiError, apiFetch } from '../../../lib/api';

import { myApplicationQueryKey } from './my-application';

export interface Quote {
  disclosure: Disclosure;
  /** The borrower's signature is bound to exactly this disclosure. */
  disclosureSha256: string;
}

export const quoteQueryKey = (amount: number, termMonths: number, productVersionId: string) =>
  ['applications', 'quote', amount, termMonths, productVersionId] as const;

async function fetchQuote(amount: number, termMonths: number, productVersionId: string): Promise<Quote> {
  const body = await apiFetch<{ disclosure: unknown; disclosureSha256: string }>('/api/applications/quote', {
    method: 'POST',
    body: { amount, termMonths, productVersionId },
  });
  const disclosure = disclosureSchema.safeParse(body.disclosure);
  if (!disclosure.success || typeof body.disclosureSha256 !== 'string') {
    throw new ApiError({ code: 'BAD_RESPONSE', message: 'The quote is not a disclosure.', status: 200 });
  }
  return { disclosure: disclosure.data, disclosureSha256: body.disclosureSha256 };
}

/**
 * The server's own disclosure for the step-1 amount and term under the chosen product version: what the
 * borrower reads before signing (SPEC principle 2). Kept until the server says the terms changed
 * (TERMS_CHANGED), then fetched again.
 */
export function useQuote(amount: number, termMonths: number, productVersionId: string) {
  return useQuery({
    queryKey: quoteQueryKey(amount, termMonths, productVersionId),
    queryFn: () => fetchQuote(amount, termMonths, productVersionId),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Submits the whole application as multipart form data (text fields, pictures, signature PNG). */
export function useSubmitApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) =>
      apiFetch<MyApplicationDto>('/api/applications', { method: 'POST', body: form }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myApplicationQueryKey }),
  });
}
