// jsdom lacks a few browser APIs Mantine relies on; the app's i18n starts in English for every test.
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import i18n, { i18nReady, languages, loadStaffStrings } from '../lib/i18n';
import { disposeQueryClients } from './query-clients';

// Lazily loaded pages can take longer than the 1 s default on a busy CI machine; a wait that should fail
// still fails, only later.
configure({ asyncUtilTimeout: 5_000 });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;

Element.prototype.scrollIntoView = () => {};
window.scrollTo = () => {};

// The app loads only the reader's language; tests read any of them (getFixedT), so all are loaded up front.
// Back-office tests render staff pages without the lazy back office, so its strings are loaded here.
await i18nReady;
await loadStaffStrings();
await i18n.loadLanguages([...languages]);

beforeEach(async () => {
  window.localStorage.clear();
  await i18n.changeLanguage('en');
});

afterEach(async () => {
  cleanup();
  await disposeQueryClients();
  // The toast store is module-global: a toast from one test must not show up in the next.
  notifications.clean();
  notifications.cleanQueue();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
