import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { screenshot } from './screens';

// A console that works on a phone and for everyone: every page is checked with axe, for
// sideways scrolling and for controls running into each other, at desktop and phone sizes, by
// the browser tests that walk it.

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
 * Fails when two buttons, links or tabs on screen overlap, or one's label runs out of it: a
 * label longer in one language (French) running into its neighbour, which neither axe nor the
 * sideways check sees. Controls
 * are compared within one layer (the open dialog, drawer or menu if any, otherwise the page;
 * fixed and sticky bars apart from what scrolls under them), each as far as it is not clipped
 * by a scrolling or hidden-overflow ancestor (tabs scrolled out of view under their arrows).
 */
export async function expectNoOverlappingControls(page: Page, name: string): Promise<void> {
  const overlaps = await page.evaluate(() => {
    const modals = Array.from(document.querySelectorAll<HTMLElement>('.MuiModal-root')).filter((modal) => !modal.classList.contains('MuiModal-hidden') && modal.getClientRects().length > 0);
    const scope: ParentNode = modals.at(-1) ?? document.body;
    // What is laid over the flow (react-admin's bulk bar over the list's toolbar, the skip link,
    // the app bar) is compared only with what shares its layer.
    const layerOf = (element: HTMLElement): Element | null => {
      for (let node: HTMLElement | null = element; node; node = node.parentElement) {
        const position = getComputedStyle(node).position;
        if (position === 'fixed' || position === 'sticky' || position === 'absolute') return node;
      }
      return null;
    };
    const visibleBox = (element: HTMLElement) => {
      let { left, top, right, bottom } = element.getBoundingClientRect();
      for (let node: HTMLElement | null = element.parentElement; node && node !== document.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const clip = node.getBoundingClientRect();
        left = Math.max(left, clip.left);
        top = Math.max(top, clip.top);
        right = Math.min(right, clip.right);
        bottom = Math.min(bottom, clip.bottom);
      }
      return { left, top, right, bottom };
    };
    const describe = (element: HTMLElement) => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40) || element.tagName.toLowerCase();
    const controls = Array.from(scope.querySelectorAll<HTMLElement>('button, a[href], [role="button"], [role="tab"]'))
      .filter((element) => {
        const style = getComputedStyle(element);
        return style.visibility !== 'hidden' && Number(style.opacity) > 0 && element.getClientRects().length > 0;
      })
      .map((element) => ({ element, layer: layerOf(element), box: visibleBox(element) }))
      .filter(({ box }) => box.right - box.left > 4 && box.bottom - box.top > 4);
    const found: string[] = [];
    // A control squeezed narrower than its label: the label runs over its neighbours while the
    // boxes themselves only touch. (A label cut on purpose has its overflow hidden.)
    for (const { element } of controls) {
      const style = getComputedStyle(element);
      if (style.display === 'inline' || style.overflowX !== 'visible') continue;
      const over = element.scrollWidth - element.clientWidth;
      if (over > 2) found.push(`the label of "${describe(element)}" runs ${over} px out of it`);
    }
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const [a, b] = [controls[i], controls[j]];
        if (a.layer !== b.layer || a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const width = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const height = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (width > 4 && height > 4) found.push(`"${describe(a.element)}" and "${describe(b.element)}" overlap by ${Math.round(width)}×${Math.round(height)} px`);
      }
    }
    return found;
  });
  expect(overlaps, `controls overlapping on ${name}`).toEqual([]);
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
  await expectNoOverlappingControls(page, name);
  if (options.axe !== false) await expectNoSeriousAxeViolations(page, name);
  await screenshot(page, name);
}
