import type { ErrorParams } from '../../domain/errors';
import { UNATTENDED_HEADER } from '../../domain/session-activity';
import { requestIsUnattended } from './activity';

/** Codes the client itself produces, next to the server's ErrorCode catalogue. */

export interface ApiFieldError {
  code: string;
  message: string;
  /** The field's own placeholders (e.g. {field}); otherwise the error's params apply. */
  params?: ErrorParams;
}

/** An API failure: the server's error body, or a client-side NETWORK / BAD_RESPONSE failure. */
export class ApiError extends Error {
  readonly code: string;
  readonly fields: Record<string, ApiFieldError>;
  readonly params: ErrorParams | undefined;
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;

  constructor(init: {
    code: string;
    message: string;
    status: number;
    fields?: Record<string, ApiFieldError>;
    params?: ErrorParams;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.fields = init.fields ?? {};
    this.params = init.params;
  }

  /** True when the request never got a usable answer (offline, proxy error page, invalid JSON). */
  get isTransport(): boolean {
    return this.code === 'NETWORK' || this.code === 'BAD_RESPONSE';
  }
}

let csrfToken: string | null = null;

/** The session's CSRF token, echoed in X-CSRF-Token on every write (from /api/me, login, password change). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  signal?: AbortSignal;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** How long after the page loaded an answer boot.js asked for is still fresh enough to use. */
const EARLY_ANSWER_MS = 10_000;

/** Where src/web/boot.js leaves the answers it asked for before the app's code ran, by path. */
const boot = globalThis as { __hiramEarlyAnswers?: Record<string, Promise<Response>> };

/**
 * Drops the early answers nothing has taken: main.tsx, once the start has asked for its data. One left over
 * (boot.js and start-data.ts disagreeing about a path) must not answer a later request, after a sign-in.
 */
export function forgetEarlyAnswers(): void {
  delete boot.__hiramEarlyAnswers;
}

/** The early answer to a GET of `path`: used once, by the first GET of that path, and only while fresh. */
function takeEarlyAnswer(path: string): Promise<Response> | undefined {
  const early = boot.__hiramEarlyAnswers;
  const answer = early?.[path];
  if (!early || !answer) return undefined;
  delete early[path];
  return performance.now() <= EARLY_ANSWER_MS ? answer : undefined;
}

export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (!SAFE_METHODS.has(method) && csrfToken) headers['x-csrf-token'] = csrfToken;
  // Not the reader's request (a poll, a re-read after a pushed change): it must not keep the session alive.
  if (requestIsUnattended()) headers[UNATTENDED_HEADER] = '1';

  let response: Response;
  try {
    const early = method === 'GET' && !options.signal ? takeEarlyAnswer(path) : undefined;
    response = await (early ??
      fetch(path, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        ...(options.signal ? { signal: options.signal } : {}),
      }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ code: 'NETWORK', message: 'The server could not be reached.', status: 0 });
  }

  const text = await response.text().catch(() => '');
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
    if (response.ok) {
      throw new ApiError({
        code: 'BAD_RESPONSE',
        message: 'The server sent an unreadable answer.',
        status: response.status,
      });
    }
  }

  if (!response.ok) throw errorFromBody(data, response.status);
  return data as T;
}

function errorFromBody(data: unknown, status: number): ApiError {
  const error = isRecord(data) && isRecord(data.error) ? data.error : null;
  if (!error || typeof error.code !== 'string') {
    return new ApiError({ code: 'BAD_RESPONSE', message: `The server answered ${status}.`, status });
  }
  const fields: Record<string, ApiFieldError> = {};
  if (isRecord(error.fields)) {
    for (const [name, value] of Object.entries(error.fields)) {
      if (isRecord(value) && typeof value.code === 'string') {
        fields[name] = {
          code: value.code,
          message: typeof value.message === 'string' ? value.message : '',
          ...(isRecord(value.params) ? { params: value.params as ErrorParams } : {}),
        };
      }
    }
  }
  return new ApiError({
    code: error.code,
    message: typeof error.message === 'string' ? error.message : '',
    status,
    fields,
    ...(isRecord(error.params) ? { params: error.params as ErrorParams } : {}),
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
