import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ResponsiveColumns } from '../src/layout/ResponsiveColumns';
import { defaultSettings, loadSettings, mergeSettings } from '../src/settings';
import { dateLocale, formatDateTime, formatLogTimestamp, formatLongDate } from '../src/utils/dates';
import { initials } from '../src/utils/avatar';
import { EMAIL_PATTERN } from '../src/utils/validators';
import { http as mswHttp, HttpResponse } from 'msw';
import { server } from './mocks/server';

describe('dates', () => {
  it('formats list dates as DD/MM/YYYY HH:mm and log timestamps with seconds and offset', () => {
    const local = new Date(2026, 10, 2, 7, 4, 9); // 2 Nov 2026 07:04:09 local time
    expect(formatDateTime(local)).toBe('02/11/2026 07:04');
    expect(formatLogTimestamp(local)).toMatch(/^02\/11\/2026 07:04:09[+-]\d\d:\d\d$/);
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });

  it("follows the browser's order within the console's language: month first for en-US", () => {
    const local = new Date(2026, 10, 2, 7, 4, 9);
    const browser = (tag: string) => Object.defineProperty(window.navigator, 'language', { value: tag, configurable: true, writable: true });
    try {
      browser('en-US');
      expect(dateLocale('en')).toBe('en-US');
      expect(formatDateTime(local)).toBe('11/02/2026 07:04 AM');
      expect(formatLogTimestamp(local)).toMatch(/^11\/02\/2026 07:04:09[+-]\d\d:\d\d$/);
      expect(formatLongDate(local, 'en')).toBe('November 2, 2026');
      // An English browser in a French console: French order and words.
      expect(dateLocale('fr')).toBe('fr-FR');
      expect(formatLongDate(local, 'fr')).toBe('2 novembre 2026');
      browser('fr-CA');
      expect(dateLocale('fr')).toBe('fr-CA');
      expect(dateLocale('en')).toBe('en-GB');
      expect(formatLongDate(local, 'en')).toBe('2 November 2026');
    } finally {
      browser('en-GB');
    }
  });
});

describe('validation rules', () => {
  it('email: non-space text, an @, then non-space text', () => {
    expect(EMAIL_PATTERN.test('ada@example.org')).toBe(true);
    expect(EMAIL_PATTERN.test('ada@localhost')).toBe(true);
    expect(EMAIL_PATTERN.test('ada example.org')).toBe(false);
    expect(EMAIL_PATTERN.test('ada @example.org')).toBe(false);
    expect(EMAIL_PATTERN.test('@example.org')).toBe(false);
  });

  it('initials for the avatar fallback', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('  grace  ')).toBe('G');
  });
});

describe('ResponsiveColumns', () => {
  it('uses 1 column, then 2 from 801 px, then 3 from 1600 px', () => {
    const { container } = render(
      <ResponsiveColumns>
        <div>a</div>
      </ResponsiveColumns>,
    );
    const css = Array.from(document.querySelectorAll('style'))
      .map((style) => style.textContent)
      .join('\n');
    const className = (container.firstChild as HTMLElement).className.split(' ').find((name) => name.startsWith('css-'))!;
    const rules = css.slice(css.indexOf(className));
    expect(rules).toMatch(/grid-template-columns:\s*minmax\(0, 1fr\)/);
    expect(rules).toMatch(/@media \(min-width: ?801px\)\{\.css-[\w-]+\{grid-template-columns:\s*repeat\(2, minmax\(0, 1fr\)\)/);
    expect(rules).toMatch(/@media \(min-width: ?1600px\)\{\.css-[\w-]+\{grid-template-columns:\s*repeat\(3, minmax\(0, 1fr\)\)/);
  });
});

describe('settings', () => {
  it('loads GET /api/settings', async () => {
    const settings = await loadSettings();
    expect(settings.sandbox).toBe(true);
    expect(settings.realtime).toEqual({ key: 'testbed', host: 'localhost', port: 8080, forceTLS: false });
  });

  it('falls back to the defaults when the server has no settings endpoint', async () => {
    server.use(mswHttp.get('/api/settings', () => HttpResponse.json({ message: 'Not found.' }, { status: 404 })));
    const settings = await loadSettings();
    expect(settings).toEqual(defaultSettings());
    expect(settings).toMatchObject({ apiUrl: '', sandbox: false, realtime: { key: 'testbed', port: 8080, forceTLS: false } });
  });

  it('ignores values of the wrong type and trims a trailing slash of apiUrl', () => {
    expect(mergeSettings({ apiUrl: 'https://api.example.org/', sandbox: 'yes', realtime: { port: '80' } })).toMatchObject({
      apiUrl: 'https://api.example.org',
      sandbox: false,
      realtime: { port: 8080 },
    });
  });
});
