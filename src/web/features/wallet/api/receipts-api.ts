import { useQuery } from '@tanstack/react-query';
import type { PaymentReceiptDto, PayoutReceiptDto } from '../../../../domain/schemas/paying';
import { apiFetch } from '../../../lib/api';
import { walletQueryKey } from './wallet-api';

export type ReceiptKind = 'payments' | 'payouts';

/** A receipt of the borrower's own payment or payout (under the wallet's key: a reversal refreshes it). */
export function useReceipt(kind: ReceiptKind | null, id: string) {
  return useQuery({
    enabled: kind !== null,
    queryKey: [...walletQueryKey, 'receipt', kind, id] as const,
    queryFn: () =>
      apiFetch<PaymentReceiptDto | PayoutReceiptDto>(
        `/api/wallet/${kind ?? 'payments'}/${encodeURIComponent(id)}/receipt`,
      ),
    retry: false,
  });
}

/** The receipt as a PDF, in the language the borrower reads the app in. */
export const receiptPdfUrl = (kind: ReceiptKind, id: string, language: string) =>
  `/api/wallet/${kind}/${encodeURIComponent(id)}/receipt.pdf?lang=${language}`;
