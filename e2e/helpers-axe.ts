import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0 and 2.1 A and AA, and axe's best practice. */
const wcag21Tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/** The same and WCAG 2.2 AA: the accessibility and session-expiry walks hold their screens to it. */
export const wcag22Tags = [...wcag21Tags, 'wcag22aa'];

/** One serious or critical axe-core violation: the rule, its help text and the elements. */
export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; failureSummary: string }[];
}

/**
 * axe-core's serious and critical violations of the rules tagged `tags` on the page as it is now. axe is
 * injected once per document (the page's context must bypass the Content-Security-Policy); the caller waits
 * for whatever the screen still has to load or animate first.
 */
export async function seriousAxeViolations(page: Page, tags: string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (values) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), failureSummary: n.failureSummary ?? '' })),
      }));
  }, tags);
}

/**
 * axe-core's serious and critical findings (WCAG 2.0/2.1 A and AA, and best practice) on the page as it is
 * now, one line each: the rule and the elements.
 */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  return (await seriousAxeViolations(page, wcag21Tags)).map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`,
  );
}
