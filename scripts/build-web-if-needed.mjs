// `npm start` builds the web app only when dist/web is missing or older than its sources, so a fresh
// clone works with one command and later starts are fast.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const out = 'dist/web/index.html';
const sources = ['src/web', 'src/domain', 'index.html', 'public', 'vite.config.ts', 'package.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

const built = existsSync(out) ? statSync(out).mtimeMs : 0;
const newest = Math.max(...sources.map(newestMtime));
if (built < newest) {
  console.info(
    built ? 'Web sources changed: rebuilding the web app…' : 'Building the web app (first start)…',
  );
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
}
