import { z } from 'zod';
import { isStorableText } from './storable-text';

export { findUnstorableText, isStorableText, storableOrNull } from './storable-text';

/** A string schema that refuses unstorable text before any other check (`z.string` otherwise). */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isStorableText, { error: 'TEXT_INVALID_CHARACTERS', abort: true });
