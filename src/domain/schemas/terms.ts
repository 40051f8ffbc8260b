import { z } from 'zod';
import { codePattern } from '../codes';
import { text } from './text';

/** Signed terms bind (SPEC §8, docs/decisions/018): what the borrower signed and every change since. */
export const termsChangeStatuses = ['proposed', 'accepted', 'declined', 'withdrawn', 'applied'] as const;
export type TermsChangeStatus = (typeof termsChangeStatuses)[number];

export const termsChangeDto = z.object({
  id: z.string(),
  status: z.enum(termsChangeStatuses),
  /** The staff member's reason, shown to the borrower. */
  reason: z.string().nullable(),
  proposedAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The disclosure that bound before this change, and the one it binds (or would bind). */
  previous: z.record(z.string(), z.unknown()),
  disclosure: z.record(z.string(), z.unknown()),
  disclosureSha256: z.string(),
});
export type TermsChangeDto = z.infer<typeof termsChangeDto>;

export const myTermsResponse = z.object({
  /** Null when the borrower has never applied. */
  signed: z
    .object({
      applicationId: z.string(),
      loanNumber: z.string(),
      signedAt: z.string(),
      disclosure: z.record(z.string(), z.unknown()),
      disclosureSha256: z.string(),
    })
    .nullable(),
  /** The change waiting for the borrower's answer. */
  proposed: termsChangeDto.nullable(),
  /** Changes that bind: accepted by the borrower, or a reduction they asked for; oldest first. */
  accepted: z.array(termsChangeDto),
});
export type MyTermsResponse = z.infer<typeof myTermsResponse>;

export const acceptTermsRequest = z.object(
  {
    code: text({ error: 'CODE_REQUIRED' })
      .trim()
      .min(1, { error: 'CODE_REQUIRED', abort: true })
      .regex(codePattern, { error: 'CODE_INVALID' }),
  },
  { error: 'CODE_REQUIRED' },
);
