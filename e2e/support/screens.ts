import type { Page } from '@playwright/test';
import { join } from 'node:path';

const screensDir = join(process.cwd(), 'e2e', 'artifacts', 'screens');

/** Saves a full-page screenshot of the current screen as a test artefact (e2e/artifacts/screens). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: join(screensDir, `${name}.png`), fullPage: true });
}
