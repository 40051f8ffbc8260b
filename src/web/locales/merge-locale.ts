/**
 * Each feature keeps its strings in `locales/<feature>/<lang>.json`, merged under the key `<feature>`
 * (so `t('wallet.title')` reads `locales/wallet/en.json` → "title"). Features can then be worked on side by
 * side without touching one shared file; the locale test checks every file has the same keys. The audit
 * catalogue is shared with the server's CSV export (src/domain/audit-labels) and merged as `auditLabels`
 * into the back office's strings (`<lang>.staff.ts`).
 */
export function mergeLocale(
  shared: Record<string, unknown>,
  featureFiles: Record<string, Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...shared };
  for (const [path, strings] of Object.entries(featureFiles)) {
    const feature = /^\.\/([\w-]+)\//.exec(path)?.[1];
    if (feature) merged[feature] = strings;
  }
  return merged;
}
