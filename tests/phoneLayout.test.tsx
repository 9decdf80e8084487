import { render, screen, within } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../src/i18n';
import frenchTranslation from '../src/i18n/fr';
import { RealtimeClientProvider } from '../src/realtime/RealtimeProvider';
import { RequestDetails } from '../src/resources/requests/RequestDetails';
import { PodLogsDialog } from '../src/resources/workspaces/PodLogsDialog';
import type { UserRequest } from '../src/types';
import { breakableEmail } from '../src/components/EmailText';

// What a 360 px phone needs from the console's text: jsdom has no layout, so these read the
// rules the elements get (the browser sweeps in e2e/ take the screenshots).

/** The CSS text of the rules that name one of the element's classes. */
const rulesOf = (element: Element): string => {
  const classes = Array.from(element.classList).filter((name) => name.startsWith('css-'));
  const css = Array.from(document.querySelectorAll('style'))
    .map((style) => style.textContent ?? '')
    .join('\n');
  return classes.map((name) => css.split('}').filter((rule) => rule.includes(`.${name}`)).join('}\n')).join('\n');
};

const inContext = (node: React.ReactNode) => render(<AdminContext i18nProvider={i18nProvider}>{node}</AdminContext>);

describe('on a phone', () => {
  it('a request’s details stack each label above its value (no max-content label column), and values do not break anywhere', async () => {
    const request = {
      id: 1,
      type: 'CreateTeam',
      data: { affiliation: 'Université de Quelque-Part', joining_reason: 'Un cours de robotique embarquée.' },
    } as unknown as UserRequest;
    inContext(<RequestDetails request={request} />);
    const details = await screen.findByLabelText('What was asked');
    const css = rulesOf(details);
    expect(css).not.toContain('max-content 1fr');
    expect(css).toMatch(/grid-template-columns:\s*minmax\(0, 1fr\)/);
    expect(css).toMatch(/grid-template-columns:\s*fit-content\(40%\) minmax\(0, 1fr\)/);
    const value = details.querySelector('dd')!;
    expect(rulesOf(value)).not.toContain('anywhere');
  });

  it('an email breaks before its @ and dots, not at any letter', () => {
    const { container } = render(<span>{breakableEmail('grace.hopper@computing.example.org')}</span>);
    expect(container.textContent).toBe('grace.hopper@computing.example.org');
    expect(container.querySelectorAll('wbr')).toHaveLength(4);
    expect(container.innerHTML).toBe('<span>grace<wbr>.hopper<wbr>@computing<wbr>.example<wbr>.org</span>');
  });

  it('log lines stay whole: one line each, the box scrolls sideways', async () => {
    inContext(
      <RealtimeClientProvider value={null}>
        <PodLogsDialog workspaceId={7} pod="web-1" open onClose={() => {}} />
      </RealtimeClientProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Logs for web-1' });
    const css = rulesOf(within(dialog).getByTestId('pod-log-lines'));
    expect(css).toMatch(/white-space:\s*pre;/);
    expect(css).not.toContain('break-all');
    expect(css).toMatch(/overflow:\s*auto/);
  });

  it('the French team form’s longest label fits a phone’s field', () => {
    const fields = (frenchTranslation as unknown as { teams: { fields: Record<string, string> } }).teams.fields;
    // An outlined field's label is one line, cut with an ellipsis: about 32 characters fit at 360 px.
    for (const key of ['fullname', 'shortname', 'affiliation', 'country', 'url', 'joining_reason', 'joining_category']) {
      expect(fields[key]!.length, key).toBeLessThanOrEqual(32);
    }
  });
});
