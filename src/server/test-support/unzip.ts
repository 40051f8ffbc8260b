import { buffer as readAll } from 'node:stream/consumers';
import { fromBufferPromise } from 'yauzl';

/** The files of a zip archive (the data export) by name, each read whole. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const archive = await fromBufferPromise(zip, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of archive.eachEntry()) {
    files.set(entry.fileName, await readAll(await archive.openReadStreamPromise(entry)));
  }
  return files;
}
