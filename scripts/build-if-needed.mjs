// `npm start` builds what is missing or older than its sources: the web app (Vite, dist/web) and the
// server (esbuild, dist/server; scripts/build-server.mjs), so a fresh clone works with one command and
// later starts are fast. A production install without dev dependencies (no Vite, no esbuild) starts from
// the dist it was given and builds nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const targets = [
  {
    name: 'web app',
    out: 'dist/web/index.html',
    sources: [
      'src/web',
      'src/domain',
      'index.html',
      'public',
      'vite.config.ts',
      'scripts/boot-script.ts',
      'package.json',
    ],
    tool: 'node_modules/vite',
    command: ['npx', ['vite', 'build', '--logLevel', 'warn']],
  },
  {
    name: 'server',
    out: 'dist/server/main.js',
    sources: ['src/server', 'src/domain', 'scripts/build-server.mjs', 'package.json'],
    tool: 'node_modules/esbuild',
    command: [process.execPath, ['scripts/build-server.mjs']],
  },
];

/** Tests do not change what is built. */
const ignored = (name) => /\.test\.tsx?$/.test(name) || name === 'test-support' || name === 'test';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path)
    .filter((name) => !ignored(name))
    .reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

for (const { name, out, sources, tool, command } of targets) {
  const built = existsSync(out) ? statSync(out).mtimeMs : 0;
  if (built && !existsSync(tool)) continue;
  if (built >= Math.max(...sources.map(newestMtime))) continue;
  if (!existsSync(tool)) {
    console.error(
      `The ${name} is not built (${out}) and its build tool is not installed: run npm install first.`,
    );
    process.exit(1);
  }
  console.info(built ? `The ${name}'s sources changed: rebuilding…` : `Building the ${name} (first start)…`);
  execFileSync(command[0], command[1], { stdio: 'inherit' });
}
