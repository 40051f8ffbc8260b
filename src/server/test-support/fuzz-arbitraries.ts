import fc from 'fast-check';

/**
 * fast-check arbitraries for hostile API input, derived from a route's OpenAPI (JSON Schema) description:
 * for each schema node a "nearly valid" value (so other fields get past validation and reach the use case
 * and the database) and a hostile one (wrong type, NUL, lone surrogates, huge, extreme numbers and dates).
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema as @fastify/swagger writes it
export type JsonSchema = Record<string, any>;

/** UTF-16 code units, lone surrogates and NUL included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const nastyUnit = fc.constantFrom(
  '\u0000',
  '\ud800',
  '\udfff',
  'a',
  '1',
  ' ',
  '-',
  '%',
  "'",
  '\\',
  '"',
  '\u202e',
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\udc00\ud800',
    '\ud83d',
    "'; drop table users; --",
    '%',
    '_',
    '\\',
    '0000-01-01',
    '10000-01-01',
    '-1',
    '1e309',
    'NaN',
    'Infinity',
    'null',
    '[]',
    '{}',
    '\r\n',
    '../../etc/passwd',
    'a'.repeat(100_000),
    '\u0000'.repeat(5_000),
    '9'.repeat(400),
    '𝕏'.repeat(1_000),
  ),
  fc.string({ unit: anyUnit, maxLength: 30 }),
  fc.string({ unit: nastyUnit, maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

export const extremeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    1e-7,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Dates PostgreSQL or the calendar refuses, or only just accepts, as strings. */
export const badDate: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0000-01-01',
    '0001-01-01',
    '1899-12-31',
    '1900-01-01',
    '9999-12-31',
    '10000-01-01',
    '2026-02-29',
    '2024-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-01-32',
    '-0001-01-01',
    '+002026-01-01',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-05:00',
    '+275760-09-13T00:00:00.000Z',
    '2026-01-01T24:00:00Z',
  ),
  fc
    .date({ noInvalidDate: true })
    .chain((d) => fc.constantFrom(d.toISOString(), d.toISOString().slice(0, 10))),
);

export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], { a: 1 }),
  extremeNumber,
  hostileString,
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Anything bad for a value of `schema`. */
export function hostileFor(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const type = schema?.type;
  if (type === 'string' && (schema?.format === 'date' || schema?.format === 'date-time'))
    return fc.oneof(badDate, hostileString, wrongType);
  if (type === 'integer' || type === 'number')
    return fc.oneof(extremeNumber, badDate, hostileString, wrongType);
  return fc.oneof(hostileString, badDate, extremeNumber, wrongType);
}

const validDate = fc
  .date({ min: new Date('1950-01-01'), max: new Date('2060-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString());

function matching(pattern: string): fc.Arbitrary<string> | null {
  try {
    const regex = new RegExp(pattern);
    const arbitrary = fc.stringMatching(regex);
    fc.sample(arbitrary, 1);
    return arbitrary;
  } catch {
    return null; // e.g. a lookahead fast-check cannot generate from
  }
}

/** A value that could pass `schema` (best effort), so the rest of the input gets further. */
export function validishFor(
  schema: JsonSchema | undefined,
  ids: readonly string[],
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 2 });
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => validishFor(s, ids, depth + 1)));
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...ids), fc.uuid());
      if (schema.format === 'date') return validDate.map((d) => d.slice(0, 10));
      if (schema.format === 'date-time') return validDate;
      if (schema.format === 'email') return fc.emailAddress();
      const fromPattern = typeof schema.pattern === 'string' ? matching(schema.pattern) : null;
      if (fromPattern) return fromPattern;
      const minLength = Math.min(schema.minLength ?? 0, 40);
      return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 30, 40)) });
    }
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1_000_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.oneof(
        fc.integer({ min: 0, max: 1_000_000_000 }),
        fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e9, noNaN: true }),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validishFor(schema.items, ids, depth + 1), { maxLength: 3 });
    case 'object':
      return objectFor(schema, ids, depth + 1);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** NUL, lone surrogates: what PostgreSQL cannot store, slipped into an otherwise plausible value. */
const poisonUnit = fc.constantFrom('\u0000', '\u0000', '\u0000\u0000', '\ud800', '\udfff', '\udc00\ud800');

/** A bad value for one field: mostly its plausible value with NUL or a lone surrogate inside. */
export function poisonFor(schema: JsonSchema | undefined, ids: readonly string[]): fc.Arbitrary<unknown> {
  const injected = fc
    .tuple(validishFor(schema, ids), poisonUnit, fc.nat({ max: 50 }))
    .map(([value, bad, at]) => {
      const text = typeof value === 'string' ? value : '';
      const i = Math.min(at, text.length);
      return `${text.slice(0, i)}${bad}${text.slice(i)}`;
    });
  return fc.oneof(
    { weight: 5, arbitrary: injected },
    { weight: 2, arbitrary: badDate },
    { weight: 1, arbitrary: hostileFor(schema) },
  );
}

/**
 * An object for `schema`: mostly every property plausible but one poisoned (so the bad value is the only
 * thing wrong and travels as far as it can), else each property plausible, hostile or missing; sometimes
 * with extra fields.
 */
export function objectFor(
  schema: JsonSchema | undefined,
  ids: readonly string[],
  depth = 0,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries((schema?.properties ?? {}) as Record<string, JsonSchema>);
  const plausible: Record<string, fc.Arbitrary<unknown>> = {};
  const mixed: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of properties) {
    plausible[name] = validishFor(property, ids, depth);
    mixed[name] = fc.oneof(
      { weight: 5, arbitrary: validishFor(property, ids, depth) },
      { weight: 2, arbitrary: hostileFor(property) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  }
  const extras = fc.dictionary(
    fc.oneof(
      fc.string({ maxLength: 8 }),
      hostileString.filter((k) => k.length < 100),
    ),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 3 },
  );
  const withExtras = (shape: Record<string, fc.Arbitrary<unknown>>) =>
    fc.tuple(fc.record(shape), fc.option(extras, { freq: 4, nil: undefined })).map(([known, extra]) => {
      const value: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(extra ?? {})) if (!(key in known)) value[key] = item;
      for (const [key, item] of Object.entries(known)) if (item !== undefined) value[key] = item;
      return value;
    });
  if (properties.length === 0) return withExtras({});
  const onePoisoned = fc.integer({ min: 0, max: properties.length - 1 }).chain((i) => {
    const [name, property] = properties[i]!;
    return withExtras({ ...plausible, [name]: poisonFor(property, ids) });
  });
  return fc.oneof(
    { weight: 6, arbitrary: onePoisoned },
    { weight: 2, arbitrary: withExtras(mixed) },
    { weight: 1, arbitrary: withExtras(plausible) },
  );
}

export interface RawBody {
  payload?: string | Buffer;
  contentType?: string;
  /** Debug label. */
  kind: string;
}

const malformedJson = fc.constantFrom(
  '',
  '{',
  '{"a":',
  '[1,2',
  'nul',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"\\u0000":1}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  '{"amount":1e400}',
  '"just a string"',
  'null',
  '123',
  '{"a":1,"a":2}',
  '\uFEFF{}',
);

/** A multipart body as a parser should not meet it: no or a wrong boundary, truncated, odd parts. */
export const malformedMultipart: fc.Arbitrary<RawBody> = fc
  .tuple(
    fc.constantFrom('none', 'wrong', 'truncated', 'noDisposition', 'hostileValue', 'manyParts', 'empty'),
    fc.oneof(fc.constantFrom('fullName', 'amount', 'idFront', 'signature', 'phone'), hostileString),
    hostileString,
    fc.nat({ max: 400 }),
  )
  .map(([variant, name, value, cut]) => {
    const boundary = 'fuzzBoundary42';
    const safeName = name.replaceAll('"', '').replaceAll('\r', '').replaceAll('\n', '').slice(0, 200);
    const part = (n: string, v: string, filename?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${n}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: image/jpeg\r\n' : ''}\r\n${v}\r\n`;
    const body = `${part(safeName, value)}${part('idFront', '\xff\xd8\xff garbage', 'a.jpg')}--${boundary}--\r\n`;
    const type = `multipart/form-data; boundary=${boundary}`;
    switch (variant) {
      case 'none':
        return { kind: 'multipart without boundary', payload: body, contentType: 'multipart/form-data' };
      case 'wrong':
        return { kind: 'multipart, wrong boundary', payload: body, contentType: `${type}-other` };
      case 'truncated':
        return { kind: 'multipart, truncated', payload: body.slice(0, cut), contentType: type };
      case 'noDisposition':
        return {
          kind: 'multipart, part without disposition',
          payload: `--${boundary}\r\nX-Nothing: 1\r\n\r\n${value}\r\n--${boundary}--\r\n`,
          contentType: type,
        };
      case 'manyParts':
        return {
          kind: 'multipart, too many parts',
          payload: `${Array.from({ length: 60 }, (_, i) => part(`f${i}`, 'x')).join('')}--${boundary}--\r\n`,
          contentType: type,
        };
      case 'empty':
        return { kind: 'multipart, empty', payload: '', contentType: type };
      default:
        return { kind: 'multipart, hostile value', payload: body, contentType: type };
    }
  });

/** A request body for a route whose JSON body is described by `schema` (or none). */
export function bodyFor(schema: JsonSchema | undefined, ids: readonly string[]): fc.Arbitrary<RawBody> {
  const json = (value: unknown, kind: string): RawBody => ({
    kind,
    payload: JSON.stringify(value) ?? 'null',
    contentType: 'application/json',
  });
  return fc.oneof(
    { weight: 12, arbitrary: objectFor(schema, ids).map((v) => json(v, 'json object')) },
    { weight: 2, arbitrary: hostileFor(schema).map((v) => json(v, 'json, not an object')) },
    {
      weight: 2,
      arbitrary: malformedJson.map((payload) => ({
        kind: 'raw json',
        payload,
        contentType: 'application/json',
      })),
    },
    { weight: 2, arbitrary: malformedMultipart },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
            'application/xml',
            'application/json; boundary=x',
          ),
          hostileString,
        )
        .map(([contentType, payload]) => ({ kind: 'other content type', payload, contentType })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'no body' }) },
  );
}

/** Percent-encodes any JS string, lone surrogates too (as the bytes a careless client would send). */
export function encodeAny(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    } else out += encodeURIComponent(char);
  }
  return out;
}

const asQueryValue = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(asQueryValue);
  if (typeof value === 'string') return [value];
  return [JSON.stringify(value) ?? ''];
};

/**
 * A query string for the given query parameters: mostly all plausible but one poisoned, else each value
 * plausible, hostile, repeated or missing; sometimes raw junk.
 */
export function queryFor(parameters: JsonSchema[], ids: readonly string[]): fc.Arbitrary<string> {
  const encode = (p: JsonSchema, value: unknown) =>
    value === undefined
      ? ''
      : asQueryValue(value)
          .map((v) => `${encodeAny(p.name)}=${encodeAny(v)}`)
          .join('&');
  const mixed = parameters.map((p) =>
    fc
      .oneof(
        { weight: 4, arbitrary: validishFor(p.schema, ids) },
        { weight: 3, arbitrary: hostileFor(p.schema) },
        { weight: 2, arbitrary: fc.constant(undefined) },
      )
      .map((value) => encode(p, value)),
  );
  const plausible = parameters.map((p) =>
    fc.option(validishFor(p.schema, ids), { nil: undefined }).map((value) => encode(p, value)),
  );
  const onePoisoned =
    parameters.length === 0
      ? fc.constant([] as string[])
      : fc
          .integer({ min: 0, max: parameters.length - 1 })
          .chain((i) =>
            fc.tuple(
              ...parameters.map((p, j) =>
                j === i ? poisonFor(p.schema, ids).map((value) => encode(p, value)) : plausible[j]!,
              ),
            ),
          );
  const junk = fc.constantFrom(
    '',
    '%',
    '%E0%A4%A',
    '%00',
    'a[b]=1',
    '&&&',
    '=',
    '%ED%A0%80=%ED%A0%80',
    'page',
  );
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: onePoisoned }, { weight: 2, arbitrary: fc.tuple(...mixed) }),
      fc.option(junk, { freq: 3, nil: undefined }),
    )
    .map(([parts, extra]) => [...parts, extra ?? ''].filter(Boolean).join('&'));
}

/** A path parameter: a real object's id, a random uuid, or anything else (encoded). */
export function pathParamFor(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ids) },
    { weight: 2, arbitrary: fc.uuid() },
    {
      weight: 3,
      arbitrary: fc
        .oneof(hostileString, badDate, extremeNumber.map(String))
        .map((v) => encodeAny(v) || '%20'),
    },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(10_000), '%00', '..', '%2F', '%', 'ÿ') },
  );
}

/** Header values a real HTTP client can send (Latin-1, no control characters but tab). */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
      .map((c) => String.fromCharCode(c)),
    maxLength: 60,
  }),
  fc.constantFrom('', '1', '-1', '0000-01-01', 'x'.repeat(8_000), 'sha256=', '::1', '999.999.999.999'),
);
