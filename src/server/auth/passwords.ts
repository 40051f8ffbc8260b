import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { Semaphore } from '../lib/semaphore';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane).
const options = {
  algorithm: 2 /* Algorithm.Argon2id: a const enum, unusable under verbatimModuleSyntax */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * Every argon2 hash and check of this process queues here: at most one per CPU at once (each takes ~19 MiB
 * and tens of milliseconds), so a flood of anonymous requests waits its turn instead of piling up memory
 * and starving everyone's log-ins of CPU (issue #15).
 */
const hashing = new Semaphore(availableParallelism());

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password, options));
}

/** Only argon2id hashes are accepted: a stored plain-text (or foreign) value never verifies. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  if (!storedHash.startsWith('$argon2id$')) return false;
  try {
    return await hashing.run(() => verify(storedHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spend the same time as a real check when the user does not exist, so timing does not reveal it. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('hiram-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
