import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane).
const options = {
  algorithm: 2 /* Algorithm.Argon2id: a const enum, unusable under verbatimModuleSyntax */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** Only argon2id hashes are accepted: a stored plain-text (or foreign) value never verifies. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  if (!storedHash.startsWith('$argon2id$')) return false;
  try {
    return await verify(storedHash, password);
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
