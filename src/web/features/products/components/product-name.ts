import type { ProductLanguage } from '../../../../domain/loan/products';

/** A product's name in the reader's language (every product has one in each). */
export function nameIn(names: Record<ProductLanguage, string>, language: string): string {
  return (names as Record<string, string>)[language] ?? names.en;
}
