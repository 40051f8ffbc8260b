import * as z from 'zod/mini';
import { isStorableText } from './storable-text';

/**
 * The same rule for zod/mini schemas (those on the borrower's first load: auth, settings, the privacy
 * notice; docs/decisions/023): further checks go in `.check(...)`.
 */
export const miniText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).check(z.refine(isStorableText, { error: 'TEXT_INVALID_CHARACTERS', abort: true }));
