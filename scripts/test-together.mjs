// `npm test`: runs npm scripts at the same time (`lint`, `typecheck` and `test:unit`, then `test:e2e`), each line
// of their output prefixed with the script's name, and fails when any of them fails (after all have ended, so
// every failure is printed). `a,b` runs b once a has ended (whether or not a passed): on the 2-core CI
// machine the vitest projects alone keep 1.7 cores busy, the e2e files alone 0.8 (they wait on the browser,
// the server and timers); side by side they took 761 and 746 s, one after the other 288 + 406 s
// (docs/decisions/063, superseding the order of 053). Lint and the type check use one core for under a minute
// beside the vitest projects.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Each argument a chain of scripts run one after the other (`a,b`), the chains side by side. */
const chains = process.argv.slice(2).map((arg) => arg.split(','));
if (chains.length === 0 || chains.flat().some((script) => !script)) {
  process.stderr.write('usage: node scripts/test-together.mjs <npm script>[,<npm script>...]...\n');
  process.exit(2);
}
const scripts = chains.flat();

const width = Math.max(...scripts.map((s) => s.length));
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
// Piped output is not a terminal: keep the colours a terminal would have shown.
const env =
  process.stdout.isTTY && !process.env.NO_COLOR ? { ...process.env, FORCE_COLOR: '1' } : process.env;

const children = new Set();

/** Runs one script, its output prefixed; resolves to whether it passed. */
function run(script) {
  const child = spawn('npm', ['run', '--silent', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const prefix = `[${script.padEnd(width)}] `;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
      out.write(`${prefix}${line}\n`),
    );
  }
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      const outcome = code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`${prefix}${outcome} after ${seconds()}\n`);
      resolve(code === 0);
    }),
  );
}

let stopping = false;
async function runChain(chain) {
  let passed = true;
  for (const step of chain) {
    if (stopping) return false;
    passed = (await run(step)) && passed;
  }
  return passed;
}

const stop = (signal) => {
  stopping = true;
  for (const child of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

const results = await Promise.all(chains.map(runChain));
process.exit(results.every(Boolean) ? 0 : 1);
