import type { FastifyInstance } from 'fastify';
import { AppError } from '../../domain/errors';

/**
 * How deeply a JSON body may nest. No request of the API nests beyond a handful of levels; a body nested
 * thousands deep is refused before anything walks it (issue #33: a signed webhook body 5,000 levels deep
 * overflowed the stack of a recursive check and answered 500). The size limit is Fastify's `bodyLimit`.
 */
export const MAX_JSON_DEPTH = 32;

/** True when `text` opens more than `max` arrays or objects inside one another (strings are skipped). */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/** The refusal of a body nested too deeply (400, in the usual shape). */
export const jsonTooDeep = () => new AppError('JSON_TOO_DEEP');

/**
 * Fastify's own JSON parser (with its `__proto__` and `constructor` checks), behind the depth check: every
 * JSON body of the app passes here before any schema or text check walks it.
 */
export function setDepthLimitedJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(jsonTooDeep(), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}
