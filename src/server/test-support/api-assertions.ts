import { expect } from 'vitest';
import { type ErrorCode, type ErrorParams, formatMessage, isErrorCode } from '../../domain/errors';
import type { ApiResponse } from './test-app';

/**
 * Asserts the one error shape of the API (SPEC §5): `{ error: { code, message, fields } }` (plus optional
 * params), with known codes and messages that match the catalogue, and nothing else in the body.
 */
export function expectErrorShape(body: unknown): asserts body is { error: Record<string, unknown> } {
  expect(body).toBeTypeOf('object');
  expect(Object.keys(body as object)).toEqual(['error']);
  const error = (body as { error: Record<string, unknown> }).error;
  expect(Object.keys(error).sort()).toEqual(
    'params' in error ? ['code', 'fields', 'message', 'params'] : ['code', 'fields', 'message'],
  );
  expect(isErrorCode(error.code), `unknown error code ${String(error.code)}`).toBe(true);
  const params = error.params as ErrorParams | undefined;
  expect(error.message).toBe(formatMessage(error.code as ErrorCode, params));
  expect(error.fields).toBeTypeOf('object');
  expect(Array.isArray(error.fields)).toBe(false);
  for (const [name, field] of Object.entries(
    error.fields as Record<string, { code: unknown; params?: ErrorParams }>,
  )) {
    expect(Object.keys(field).sort(), `field ${name}`).toEqual(
      'params' in field ? ['code', 'message', 'params'] : ['code', 'message'],
    );
    expect(isErrorCode(field.code), `field ${name} code`).toBe(true);
    expect(field, `field ${name}`).toEqual({
      ...field,
      message: formatMessage(field.code as ErrorCode, field.params ?? params),
    });
  }
}

/**
 * Asserts an error answer: status, shape, code and — when given — the exact English message. Pass the SPEC
 * wording literally in tests, so a changed catalogue text fails them.
 */
export function expectError(response: ApiResponse, status: number, code: ErrorCode, message?: string) {
  expect({ status: response.status, code: response.body?.error?.code }, response.text).toEqual({
    status,
    code,
  });
  expectErrorShape(response.body);
  if (message !== undefined) expect(response.body.error.message).toBe(message);
}

/**
 * Asserts a generated PDF answered as a download no cache keeps (`pdfRoute`): 200, application/pdf,
 * no-store, a PDF file's first bytes, and where given the attachment's `filename`.
 */
export function expectPdfDownload(response: ApiResponse, filename?: string) {
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  expect(response.headers['cache-control']).toBe('no-store');
  if (filename !== undefined) {
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
  }
  expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
}
