/**
 * `work`'s outcome, or a rejection with `message` once `ms` have passed without one (the work itself is not
 * stopped: the caller ends whatever it was waiting on). The timer never outlives the race.
 */
export function withinTime<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
