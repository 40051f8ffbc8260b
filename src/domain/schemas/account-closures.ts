import { z } from 'zod';
import { listQuerySchema, pageOf } from './staff';

/** Staff's list of account closures (/admin/account-closures; issue #14). */
export const closureListQuery = listQuerySchema.pick({ page: true, phone: true });
export const accountClosureItem = z.object({
  userId: z.string(),
  /** The phone while the account still holds it; null once anonymised. */
  phone: z.string().nullable(),
  fullName: z.string().nullable(),
  requestedAt: z.string(),
  anonymiseOn: z.string(),
  anonymisedAt: z.string().nullable(),
});
export const accountClosurePage = pageOf(accountClosureItem);
export type AccountClosurePage = z.infer<typeof accountClosurePage>;
export type AccountClosureItem = z.infer<typeof accountClosureItem>;
