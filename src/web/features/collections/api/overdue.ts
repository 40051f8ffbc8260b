import { type OverdueBucket, overdueBuckets } from '../../../../domain/schemas/portfolio';

/** The bucket in the URL (`?bucket=31-60`), or null for "All" (also for anything unknown). */
export function bucketFrom(value: string): OverdueBucket | null {
  return (overdueBuckets as readonly string[]).includes(value) ? (value as OverdueBucket) : null;
}
