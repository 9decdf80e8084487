import { readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

// A failed browser test says what the page showed, at the very end of the run's output.
// CI keeps only the tail of what a run prints, and the screenshots and traces stay on the
// machine that ran it; the page snapshot Playwright writes for each failure (its accessibility
// tree, in error-context.md) is then the only view of the page a reader of the log gets.

/** Lines of each failure's page snapshot printed: the top of the page, where the layout says where it is. */
const SNAPSHOT_LINES = 40;

interface Failure {
  title: string;
  snapshot: string[];
}

const pageSnapshot = (result: TestResult): string[] => {
  const attachment = result.attachments.find((item) => item.name === 'error-context' && item.path);
  if (!attachment?.path) return [];
  let text: string;
  try {
    text = readFileSync(attachment.path, 'utf8');
  } catch {
    return [];
  }
  // The snapshot is the file's last YAML block (under '# Page snapshot', or straight after the error).
  const start = text.lastIndexOf('```yaml');
  if (start < 0) return [];
  const end = text.indexOf('```', start + 7);
  return text
    .slice(start + 7, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, SNAPSHOT_LINES);
};

export default class FailurePageReporter implements Reporter {
  private readonly failures: Failure[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    this.failures.push({ title: test.titlePath().filter(Boolean).join(' › '), snapshot: pageSnapshot(result) });
  }

  onEnd(): void {
    if (this.failures.length === 0) return;
    console.log('\nWhat the page showed when each test failed (the top of its page snapshot):');
    for (const failure of this.failures) {
      console.log(`\n  ${failure.title}`);
      if (failure.snapshot.length === 0) console.log('    (no page snapshot)');
      for (const line of failure.snapshot) console.log(`    ${line}`);
    }
  }

  printsToStdio(): boolean {
    return true;
  }
}
