import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { screenshot } from './screens';

// A console that works on a phone and for everyone: every page is checked with axe
// and for sideways scrolling, at desktop and phone sizes, by the browser tests that walk it.

/** The sizes every page is checked at: a desktop and the narrowest phone the console supports. */
export const DESKTOP = { width: 1280, height: 860 } as const;
export const PHONE = { width: 360, height: 740 } as const;

/** axe's rule sets for WCAG 2.1 A and AA, plus its best practices (landmarks, headings). */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Violations of these impacts fail the test; minor and moderate ones are reported only. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe on the page as it is now and fails on any serious or critical violation, naming
 * each rule and the elements it flagged so that the failure says what to fix.
 */
export async function expectNoSeriousAxeViolations(page: Page, name: string): Promise<void> {
  // Only violations are detailed: describing every passing node too (axe's default) takes most
  // of its time on a long list page, and nothing here reads them.
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ['violations'] }).analyze();
  const failing = results.violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''));
  const described = failing.map((violation) =>
    `${violation.impact} ${violation.id}: ${violation.help}\n` +
    violation.nodes.slice(0, 5).map((node) => `    ${node.target.join(' ')} ${node.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`).join('\n'),
  );
  expect(described, `axe on ${name}`).toEqual([]);
}

/** Fails when the page scrolls sideways: its content is wider than the viewport. */
export async function expectNoHorizontalOverflow(page: Page, name: string): Promise<void> {
  const { scrollWidth, clientWidth, widest } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    // The element reaching furthest right, so that the failure says what overflows.
    let widestElement = '';
    let right = root.clientWidth;
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const box = element.getBoundingClientRect();
      if (box.right > right + 1 && box.width > 0) {
        right = box.right;
        const classes = typeof element.className === 'string' ? element.className.split(' ').slice(0, 2).join('.') : '';
        widestElement = `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''} "${(element.textContent ?? '').trim().slice(0, 40)}" reaches ${Math.round(box.right)} px`;
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, widest: widestElement };
  });
  expect(scrollWidth, `${name} scrolls sideways (${scrollWidth} > ${clientWidth} px): ${widest}`).toBeLessThanOrEqual(clientWidth + 1);
}

/**
 * Waits for the transitions and animations that end (a dialog fading in, a drawer sliding) to
 * finish; looping ones (spinners, skeletons) are left running. axe reads colours as painted: a
 * dialog caught half faded in has its text blended with the backdrop, and fails contrast.
 */
export async function waitForTransitions(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity));
    const settled = Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 3000))]);
  });
}

/**
 * The checks every page gets once it has rendered: no sideways scroll, no serious or critical
 * axe violation, and a full-page screenshot (e2e/artifacts/screens/<name>.png) to look at.
 */
export async function checkPage(page: Page, name: string, options: { axe?: boolean } = {}): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await waitForTransitions(page);
  await expectNoHorizontalOverflow(page, name);
  if (options.axe !== false) await expectNoSeriousAxeViolations(page, name);
  await screenshot(page, name);
}
