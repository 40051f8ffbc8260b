import type { Language } from '../../../../domain/languages';

/** A product's name in the reader's language (every product has one in each). */
export function nameIn(names: Record<Language, string>, language: string): string {
  return (names as Record<string, string>)[language] ?? names.en;
}
