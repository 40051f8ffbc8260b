import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../api';
import { useErrorText } from '../error-text';
import { notifyError } from '../notify';

/**
 * Answers that mean "someone else already changed this": the screen was out of date (another staff member
 * decided, held or released it, or the record is gone). Nothing the user typed is wrong.
 */
export const conflictCodes: readonly string[] = [
  'ALREADY_DECIDED',
  'DISBURSEMENT_ALREADY_DECIDED',
  'STATUS_UNCHANGED',
  'STATUS_CHANGE_REFUSED',
  'LOAN_NOT_FOUND',
  'NOT_FOUND',
  'REPAYMENT_ALREADY_REVERSED',
  // Signed terms and four-eyes (docs/decisions/018): the borrower or another staff member got there first.
  'TERMS_CHANGE_PENDING',
  'TERMS_CHANGE_NOT_OPEN',
  'AWAITING_SECOND_APPROVAL',
  'NOT_AWAITING_SECOND_APPROVAL',
];

export function isConflict(error: unknown, codes: readonly string[] = conflictCodes): boolean {
  return error instanceof ApiError && codes.includes(error.code);
}

export interface StaffMutationOptions<TVariables, TResult> {
  mutationFn: (variables: TVariables) => Promise<TResult>;
  /** What to re-read after the change, or after finding that someone else changed it first. */
  refresh: (queryClient: QueryClient, result?: TResult) => Promise<unknown>;
  /**
   * The codes that mean "someone else changed it first" for this action; default `conflictCodes`. An action
   * where a code is the user's own input error (LOAN_NOT_FOUND for a typed loan number) leaves it out.
   */
  conflictCodes?: readonly string[];
}

/**
 * One back-office write as a TanStack Query mutation, with the one shared handling of conflicts: the
 * server's message as a red toast, the lists and profile re-read, and `run` resolving to null so the
 * modal closes. Any other error is thrown by `run`, for the modal to show it and stay open.
 */
export function useStaffMutation<TVariables, TResult>(options: StaffMutationOptions<TVariables, TResult>) {
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const { refresh } = options;
  const codes = options.conflictCodes ?? conflictCodes;
  const mutation = useMutation({
    mutationFn: options.mutationFn,
    onSuccess: (result) => refresh(queryClient, result),
    onError: (error) => {
      if (!isConflict(error, codes)) return;
      notifyError(errorText(error));
      void refresh(queryClient);
    },
  });
  const { mutateAsync } = mutation;
  /** The change's result, or null when someone else changed it first (already told and refreshed). */
  const run = useCallback(
    async (variables: TVariables): Promise<TResult | null> => {
      try {
        return await mutateAsync(variables);
      } catch (error) {
        if (isConflict(error, codes)) return null;
        throw error;
      }
    },
    [mutateAsync, codes],
  );
  return { ...mutation, run };
}
