/// <reference lib="dom" />
// (DOM types: page.evaluate() callbacks run in the browser.)
// axe-core in a page, for the accessibility tests of test/e2e/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Returns axe-core's violations on the page (rule id and the first offending element), WCAG 2.2 A/AA rules. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (o: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run({
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')} (${v.nodes.length})`);
  });
  return violations;
}
