import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';
import { collectPendingCounts } from './pending-counts';
import { testProcessEnv } from './process-env';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * One `npm start`-like server process (`node --import tsx src/server/main.ts`): the one way API tests, e2e
 * and the process tests start a server (issue #37), with one readiness wait below.
 */
export interface AppProcess {
  name: string;
  port: number;
  baseUrl: string;
  child: ChildProcess;
  /** Standard output and error together, in arrival order. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when a signal ended it). */
  exit: Promise<number | null>;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. Safe to call twice or after a crash. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  /** The port to listen on (a free one when not given); an env PORT still wins, for bad-config tests. */
  port?: number;
  /** Pass this process's whole environment on (e2e, bench), instead of PATH and HOME alone. */
  inheritEnv?: boolean;
  /** As a lender runs it (the bench): NODE_ENV=production, none of the test settings. */
  production?: boolean;
  /**
   * The built server instead of the sources through tsx: `true` for `dist/server/main.js` (as `npm start`
   * runs it), or the `main.js` of another build (the e2e run builds its own: e2e/support/build-server.ts).
   */
  built?: boolean | string;
  /** Also copy the server's output to this process's (the bench shows its warnings). */
  echo?: boolean;
}

/**
 * Starts a server process with the given environment on top of `testProcessEnv`, its PORT and — unless
 * `env` says otherwise — no scheduled jobs.
 */
export async function startAppProcess(
  name: string,
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<AppProcess> {
  const port = options.port ?? (await freePort());
  const base = options.inheritEnv
    ? process.env
    : { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
  const mode = options.production ? { NODE_ENV: 'production' } : testProcessEnv;
  const args = options.built
    ? [typeof options.built === 'string' ? options.built : 'dist/server/main.js']
    : ['--import', 'tsx', 'src/server/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...base, ...mode, PORT: String(port), JOBS_ENABLED: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (options.echo) {
    child.stdout?.pipe(process.stdout);
    child.stderr?.pipe(process.stderr);
  }
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
    stderr += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    exit,
    async stop(graceMs = 10_000) {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (running()) child.kill('SIGKILL');
      }, graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

export interface ReadyOptions {
  /** 60 s unless given; a loaded machine's first start (a fresh embedded database) may need more. */
  timeoutMs?: number;
  /** `/api/health/ready` (database reachable, migrations current) unless given. */
  path?: string;
  /** Also wait for this in the output (e.g. the first-start administrator's password). */
  printed?: RegExp;
  /** How often to ask: 150 ms unless given (the cold-start bench asks every 20 ms). */
  pollMs?: number;
}

/** Waits until `path` answers 200 (and `printed` appeared); fails at once, with the output, if it exits. */
export async function waitUntilReady(server: AppProcess, options: ReadyOptions = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let exited = false;
  void server.exit.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${server.name} exited early:\n${server.output()}`);
    const healthy = await fetch(`${server.baseUrl}${options.path ?? '/api/health/ready'}`).then(
      (response) => response.ok,
      () => false, // not listening yet
    );
    if (healthy && (!options.printed || options.printed.test(server.output()))) return;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 150));
  }
  throw new Error(`${server.name} did not become ready:\n${server.output()}`);
}

export interface HttpResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON of any route
  body: any;
  text: string;
  bytes: Buffer;
  headers: Headers;
}

/**
 * A browser over real HTTP: a cookie jar and the session's CSRF token (taken from every answer that
 * carries one, as the web app does). `on` picks the server each request goes to, so one browser can
 * talk to several instances behind an imagined load balancer.
 */
export class HttpBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  async request(
    server: AppProcess,
    method: string,
    path: string,
    options: { json?: unknown; raw?: Buffer; contentType?: string; timeoutMs?: number } = {},
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (this.csrfToken && method !== 'GET') headers['x-csrf-token'] = this.csrfToken;
    let body: string | Blob | undefined;
    if (options.raw) {
      body = new Blob([new Uint8Array(options.raw)]);
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      const expired =
        value === '' ||
        attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    const parsed = isJson && text ? JSON.parse(text) : text;
    if (parsed && typeof parsed === 'object' && 'csrfToken' in parsed)
      this.csrfToken = parsed.csrfToken ?? null;
    return { status: response.status, body: parsed, text, bytes, headers: response.headers };
  }

  get(server: AppProcess, path: string) {
    return this.request(server, 'GET', path);
  }

  post(server: AppProcess, path: string, json?: unknown) {
    return this.request(server, 'POST', path, { json: json ?? {} });
  }

  /** Another browser with the same cookies and token (the same session). */
  clone(): HttpBrowser {
    const copy = new HttpBrowser();
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    copy.csrfToken = this.csrfToken;
    return copy;
  }
}

/** The latest 6-digit code the development outbox of `server` "sent" to `phone` (each process has its own). */
export async function outboxCode(server: AppProcess, phone: string): Promise<string> {
  const response = await new HttpBrowser().get(server, `/api/dev/outbox?phone=${phone}`);
  const text: string = response.body?.messages?.[0]?.text ?? '';
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in ${server.name}'s outbox for ${phone}: ${response.text}`);
  return code;
}

/**
 * The back-office event stream (`/api/staff/events`) of `server`, read over HTTP: the `pending` counts in
 * the order they arrived.
 */
export async function openPendingEvents(
  server: AppProcess,
  browser: HttpBrowser,
): Promise<{ counts: number[]; close(): void }> {
  const controller = new AbortController();
  const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await fetch(`${server.baseUrl}/api/staff/events`, {
    headers: { cookie },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) throw new Error(`event stream: ${response.status}`);
  const counts: number[] = [];
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const read = collectPendingCounts(counts);
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      read(value);
    }
  })().catch(() => {});
  return { counts, close: () => controller.abort() };
}
