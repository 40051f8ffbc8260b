// `npm test`: runs npm scripts at the same time (`lint`, `typecheck`, `test:unit` and `test:e2e`), each line
// of their output prefixed with the script's name, and fails when any of them fails (after all have ended, so
// every failure is printed). On the 2-core CI machine the e2e files leave most of a core idle (browser and
// timer waits), and lint and the type check use one core for under a minute: side by side the run takes
// about as long as the longest of them instead of their sum (docs/decisions/053, 057). `script@N` runs that
// script N steps nicer (`nice -n N`): the e2e stage, whose tests allow 120 s, yields the CPU to the API
// tests, which allow 30 s.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const runs = process.argv.slice(2).map((arg) => {
  const [, script = '', nice] = /^(.*?)(?:@(\d+))?$/.exec(arg) ?? [];
  return { script, nice };
});
if (runs.length === 0 || runs.some((r) => !r.script)) {
  process.stderr.write('usage: node scripts/test-together.mjs <npm script>[@<niceness>]...\n');
  process.exit(2);
}
const scripts = runs.map((r) => r.script);

const width = Math.max(...scripts.map((s) => s.length));
const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
// Piped output is not a terminal: keep the colours a terminal would have shown.
const env =
  process.stdout.isTTY && !process.env.NO_COLOR ? { ...process.env, FORCE_COLOR: '1' } : process.env;

const children = runs.map(({ script, nice }) => {
  const command = ['npm', 'run', '--silent', script];
  const [file, ...args] = nice ? ['nice', '-n', nice, ...command] : command;
  const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = `[${script.padEnd(width)}] `;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
      out.write(`${prefix}${line}\n`),
    );
  }
  const done = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      const outcome = code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
      process.stdout.write(`${prefix}${outcome} after ${seconds()}\n`);
      resolve(code === 0);
    }),
  );
  return { child, done };
});

const stop = (signal) => {
  for (const { child } of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

const results = await Promise.all(children.map((c) => c.done));
process.exit(results.every(Boolean) ? 0 : 1);
