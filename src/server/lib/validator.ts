import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { AppError } from '../../domain/errors';
import { findUnstorableText } from '../../domain/schemas/text';

/**
 * The zod validator, plus the one text rule of the domain (`findUnstorableText`) over everything a route's
 * schema lets through: body, query string, path params and headers. Every string schema of the domain
 * already starts with `text()`; this is the net for a schema that forgot it (a record, an enum-free
 * `z.string()` in a new route), so NUL or a lone surrogate never reaches the database as a 500.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  const validate = zodValidatorCompiler(route as Parameters<typeof zodValidatorCompiler>[0]);
  return (data) => {
    const result = validate(data) as { value?: unknown; error?: unknown };
    if (result.error) return result as never;
    const path = findUnstorableText(result.value);
    if (path) {
      const field = path.join('.') || '_';
      return {
        error: new AppError('TEXT_INVALID_CHARACTERS', {
          fields: field === '_' ? {} : { [field]: 'TEXT_INVALID_CHARACTERS' },
        }),
      } as never;
    }
    return result as never;
  };
};
