import { afterAll, beforeAll } from 'vitest';
import { startServer } from './server';

// Every e2e file gets its own fresh app (own server process, data dir and port), so any file runs alone
// and in any order: nothing one file does (e.g. using the one-time admin password) reaches another.
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  stop = (await startServer()).stop;
});
afterAll(async () => {
  await stop?.();
});
