import cat from './avatar-1.svg';
import owl from './avatar-2.svg';
import fox from './avatar-3.svg';
import bear from './avatar-4.svg';
import penguin from './avatar-5.svg';

/** The five preset avatars (SPEC §2.6, §2.7); users.avatar stores the number. */
export const avatarIds = [1, 2, 3, 4, 5] as const;
export type AvatarId = (typeof avatarIds)[number];

const avatars: Record<AvatarId, { src: string; name: string }> = {
  1: { src: cat, name: 'cat' },
  2: { src: owl, name: 'owl' },
  3: { src: fox, name: 'fox' },
  4: { src: bear, name: 'bear' },
  5: { src: penguin, name: 'penguin' },
};

export function isAvatarId(value: unknown): value is AvatarId {
  return typeof value === 'number' && (avatarIds as readonly number[]).includes(value);
}

/** Anything outside 1–5 (an old or broken value) shows the first avatar rather than a broken image. */
function known(n: number): AvatarId {
  return isAvatarId(n) ? n : 1;
}

/** The image URL of avatar `n` (bundled by Vite; small enough to be inlined). */
export function avatarSrc(n: number): string {
  return avatars[known(n)].src;
}

/** Locale key of the avatar's name, e.g. "avatars.names.cat". */
export function avatarNameKey(n: number): string {
  return `avatars.names.${avatars[known(n)].name}`;
}
