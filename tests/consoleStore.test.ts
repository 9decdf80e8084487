import { localStorageStore } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { consoleStore } from '../src/App';
import { createI18nProvider } from '../src/i18n';

// react-admin's I18nContextProvider renders nothing until its stored locale and the i18n
// provider's agree, then everything again from an effect; the console's store starts with one.
// (react-admin's memory store keeps writes until it is set up, after the first render: the
// console uses the local storage one, which writes at once.)

const APP_KEY = 'console-store-test';

describe("the console's react-admin store", () => {
  beforeEach(() => window.localStorage.clear());

  it("starts with the i18n provider's locale when none is stored, before react-admin's first render", () => {
    const i18nProvider = createI18nProvider();
    const store = consoleStore(i18nProvider, localStorageStore(undefined, APP_KEY));
    expect(store.getItem('locale')).toBe(i18nProvider.getLocale());
  });

  it('keeps a locale already stored (the language chosen earlier on this browser)', () => {
    localStorageStore(undefined, APP_KEY).setItem('locale', 'fr');
    const store = consoleStore(createI18nProvider(), localStorageStore(undefined, APP_KEY));
    expect(store.getItem('locale')).toBe('fr');
  });
});
