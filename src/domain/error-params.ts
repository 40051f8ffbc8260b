import { MINOR_PER_MAJOR } from './money';

export type ErrorParams = Record<string, string | number>;

/**
 * Params are data, not text: an amount travels as `<name>Minor` (an integer of centavos) and each reader
 * shows it in its own language as `{<name>}`; a whole-peso amount (an amount rule's bound or step) as
 * `<name>Pesos`, shown without centavos ("₱10,000", as SPEC §5 writes them). Here, for the server's English
 * message, that is en-PH.
 */
export function moneyParamsAsText(
  params: ErrorParams,
  format: (minor: number, options?: { omitZeroCents?: boolean }) => string,
): Record<string, string | number> {
  const shown: Record<string, string | number> = { ...params };
  for (const [name, value] of Object.entries(params)) {
    if (name.endsWith('Minor') && typeof value === 'number')
      shown[name.slice(0, -'Minor'.length)] = format(value);
    else if (name.endsWith('Pesos') && typeof value === 'number')
      shown[name.slice(0, -'Pesos'.length)] = format(value * MINOR_PER_MAJOR, { omitZeroCents: true });
  }
  return shown;
}
