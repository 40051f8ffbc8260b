import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/test-support/free-port';

/**
 * Issue #34's first guard: the image is built by root and run by uid 1000, and its first start on an empty
 * volume failed (EACCES) because the build left 160 files of the database template readable by root only.
 * This builds the server as this test's user (root in CI, as `docker build` is), lays it out as the image
 * does (package.json, node_modules, dist/server) and starts it as uid 1000 on an empty DATA_DIR with
 * NODE_ENV=production. Only root can switch users, so elsewhere it is skipped and says why.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUN_AS = 1000;
const isRoot = process.getuid?.() === 0;
if (!isRoot) {
  console.warn(
    'production-layout.test.ts skipped: it must run as root to build as root and start the server as ' +
      `uid ${RUN_AS} (CI runs as root).`,
  );
}

/** Whether `uid` may read `path` (and enter every folder above it). */
const canRead = (uid: number, path: string) =>
  spawnSync('/usr/bin/setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', 'test', '-r', path])
    .status === 0;

/**
 * The checkout's node_modules at `target`: a link when uid 1000 can reach it; when the checkout lies in a
 * folder it cannot enter (a clone under /root), a copy made of hard links (no bytes copied), else a copy.
 */
function provideNodeModules(target: string) {
  const source = join(ROOT, 'node_modules');
  if (canRead(RUN_AS, join(source, 'fastify', 'package.json'))) return symlinkSync(source, target);
  try {
    execFileSync('cp', ['-al', source, target], { stdio: 'pipe' });
  } catch {
    rmSync(target, { recursive: true, force: true });
    execFileSync('cp', ['-a', source, target], { stdio: 'pipe' });
  }
}

/**
 * The packages the built server loads before it listens: the static imports of server.js and of the
 * chunks main.ts imports at start (its own `import()`s), chunk by chunk; not what those chunks import later.
 */
function eagerPackages(dir: string): string[] {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(join(dir, file), 'utf8');
    for (const [, from, bare] of source.matchAll(
      /^(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"|^import\s+"([^"]+)"/gms,
    )) {
      const specifier = (from ?? bare)!;
      if (specifier.startsWith('./')) visit(specifier.slice(2));
      else if (!specifier.startsWith('node:')) packages.add(specifier);
    }
    if (file === 'server.js') {
      for (const [, chunk] of source.matchAll(/\bimport\("\.\/([^"]+)"\)/g)) visit(chunk!);
    }
  };
  visit('server.js');
  return [...packages];
}

let work: string | undefined;
// A copy of node_modules (see provideNodeModules) takes a while to remove on a busy machine.
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe.skipIf(!isRoot)('the production layout, built by root', () => {
  it(`starts as uid ${RUN_AS} on an empty DATA_DIR, becomes ready and stops cleanly`, async () => {
    work = mkdtempSync(join(tmpdir(), 'hiram-layout-'));
    chmodSync(work, 0o755);
    const app = join(work, 'app');
    mkdirSync(app);
    copyFileSync(join(ROOT, 'package.json'), join(app, 'package.json'));
    provideNodeModules(join(app, 'node_modules'));
    execFileSync(process.execPath, ['scripts/build-server.mjs', '--out', join(app, 'dist/server')], {
      cwd: ROOT,
      stdio: 'pipe',
    });

    // Issue #35: what only some routes need is not loaded before the server can answer, nor pg (this is
    // PGlite), nor the API documentation's packages (API_DOCS is off in production); the packages bundled
    // into the server (scripts/build-server.mjs) are not read from node_modules at all. (toContain
    // compares with ===, so a pattern is checked with filter.)
    const eager = eagerPackages(join(app, 'dist/server'));
    expect(eager).toContain('fastify');
    expect(
      eager.filter((name) =>
        /^(pg|sharp|pdfkit|fontkit|harfbuzzjs|yazl|qrcode|@aws-sdk\/.*|@simplewebauthn\/.*|@fastify\/swagger.*)$/.test(
          name,
        ),
      ),
    ).toEqual([]);
    expect(eager.filter((name) => /^(kysely|zod|fastify-type-provider-zod)(\/.*)?$/.test(name))).toEqual([]);

    const data = join(work, 'data');
    mkdirSync(data);
    chownSync(data, RUN_AS, RUN_AS);
    const port = await freePort();
    const child = spawn(
      '/usr/bin/setpriv',
      [`--reuid=${RUN_AS}`, `--regid=${RUN_AS}`, '--clear-groups', process.execPath, 'dist/server/main.js'],
      {
        cwd: app,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: work,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: data,
          NODE_COMPILE_CACHE: join(work, 'compile-cache'),
          JOBS_ENABLED: 'false',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let status = 0;
      for (let i = 0; i < 240 && child.exitCode === null; i++) {
        status = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(status, `not ready; the server said:\n${output}`).toBe(200);
      expect(output).toContain('First start: an administrator account was created');

      // The database is the runtime user's own and private to it.
      const pgdata = statSync(join(data, 'pgdata'));
      expect([pgdata.uid, pgdata.mode & 0o777]).toEqual([RUN_AS, 0o700]);
      const version = statSync(join(data, 'pgdata', 'PG_VERSION'));
      expect([version.uid, version.mode & 0o777]).toEqual([RUN_AS, 0o600]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit, output).toBe(0);

    // What the image's build must leave: a template every user can read (and no one but root can change).
    const template = join(app, 'dist/server/pglite-template');
    const unreadable = readdirSync(template, { recursive: true, withFileTypes: true })
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((path) => (statSync(path).mode & 0o004) === 0 || (statSync(path).mode & 0o002) !== 0);
    expect(unreadable, 'template files not readable by all, or writable by all').toEqual([]);
  }, 120_000);
});
