import type { AppDeps } from '../deps';

/** A file younger than this may belong to an upload whose rows are not committed yet: never touched. */
const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * The stored files and the column that references each of them. Only these folders are swept: a folder
 * not listed here (a future kind of file) is left alone until its owning table is added.
 */
const sweptFolders = [
  { prefix: 'applications/', table: 'documents', column: 'storage_key' },
  { prefix: 'complaints/', table: 'complaints', column: 'picture_key' },
] as const;

const BATCH = 200;

/**
 * Removes orphan files: a crash between writing an upload's pictures and committing its rows (or a failed
 * clean-up after a failed commit) leaves files no row references. There is no pending prefix: a file counts
 * as an orphan when it is older than an hour (`ORPHAN_MIN_AGE_MS`, judged by its stored modification time
 * against `now`) and no committed row references its key; uploads write their files and commit within
 * seconds. References are read after the listing, so a row committed meanwhile still protects its file.
 * Leftover temp files of an interrupted local write (`<key>.<random>.tmp`) are orphans the same way.
 */
export async function sweepOrphanFiles(
  deps: Pick<AppDeps, 'db' | 'storage' | 'log'>,
  now: Date = new Date(),
): Promise<{ removed: number }> {
  const cutoff = now.getTime() - ORPHAN_MIN_AGE_MS;
  let removed = 0;
  for (const { prefix, table, column } of sweptFolders) {
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const rows = await deps.db
        .selectFrom(table)
        .select(`${column} as key`)
        .where(column, 'in', batch)
        .execute();
      const referenced = new Set(rows.map((row) => row.key));
      for (const key of batch) {
        if (referenced.has(key)) continue;
        await deps.storage.delete(key);
        removed += 1;
      }
      batch = [];
    };
    for await (const file of deps.storage.list(prefix)) {
      if (file.modifiedAt.getTime() > cutoff) continue;
      batch.push(file.key);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  }
  if (removed > 0) deps.log.info({ removed }, 'orphan files removed from storage');
  return { removed };
}

const lastSweep = new WeakMap<object, number>();

/**
 * The scheduled job: the first tick after start sweeps, later ticks at most once an hour per instance
 * (listing a bucket every few minutes would cost more than the orphans). Several instances sweeping at
 * once is harmless: deleting a missing file is no error.
 */
export async function runOrphanSweep(deps: AppDeps): Promise<{ removed: number } | null> {
  const now = deps.clock.now();
  const last = lastSweep.get(deps);
  if (last !== undefined && now.getTime() - last < ORPHAN_MIN_AGE_MS) return null;
  lastSweep.set(deps, now.getTime());
  return sweepOrphanFiles(deps, now);
}
