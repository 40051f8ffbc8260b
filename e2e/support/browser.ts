import { mkdirSync } from 'node:fs';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';
import { codePurposes } from '../../src/domain/codes';
import { runningServer } from './server';

export const baseUrl = () => runningServer().baseUrl;

/** Debian's Chromium, never a downloaded browser; flags keep it quiet on a machine without a network. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

export async function newPage(
  browser: Browser,
  viewport: keyof typeof viewports = 'desktop',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: viewports[viewport],
    baseURL: baseUrl(),
    locale: 'en-US',
  });
  const page = await context.newPage();
  return { context, page };
}

/** The phone and the wider desktop window the issues' screens are checked at (#32 and after). */
export const checkedSizes = { phone: viewports.phone, desktop: { width: 1440, height: 900 } } as const;

/**
 * A browser window axe can check: `viewport` wide, on the app, in English, with the Content-Security-Policy
 * bypassed (axe is injected as an inline script, which the app's policy rightly refuses). `options` adds to
 * the window's settings (downloads, clipboard).
 */
export async function axePage(
  browser: Browser,
  viewport: { width: number; height: number },
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    baseURL: baseUrl(),
    locale: 'en-US',
    bypassCSP: true,
    ...options,
  });
  return { context, page: await context.newPage() };
}

/**
 * Waits, at most `timeoutMs`, until no transition is running (a dialog fading in, a section opening); endless
 * animations such as a spinner's are left aside. Gives up quietly: the caller checks what it needs.
 */
export async function transitionsDone(page: Page, timeoutMs: number): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      undefined,
      { timeout: timeoutMs },
    )
    .catch(() => {});
}

/**
 * Screenshots for a person to look at; kept out of git under ./screenshots. Taken once transitions (a
 * dialog fading in) have finished; `fullPage: false` for what is on screen, e.g. over an open dialog.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync('screenshots', { recursive: true });
  await transitionsDone(page, 2_000);
  await page.screenshot({ path: `screenshots/${name}.png`, fullPage: options.fullPage ?? true });
}

let phoneCounter = 0;
/** A phone number no other test in this file uses (the file's server is shared by its tests). */
export function uniquePhone(): string {
  phoneCounter += 1;
  const tail = `${Date.now() % 1_000_000_000}${phoneCounter}`.slice(-9).padStart(9, '0');
  return `09${tail}`;
}

/**
 * Reads the newest SMS code sent to `phone` from the development outbox. Only a code message counts: the
 * messages of a change (sent moments later by the outbox's sender) carry a loan number, whose six digits
 * are not a code. With `purpose`, only a code for that: a phone that signed up has its sign-up code in the
 * outbox, which a read made before the next code arrives would otherwise take.
 */
export async function latestCode(phone: string, purpose?: (typeof codePurposes)[number]): Promise<string> {
  const wanted: readonly string[] = purpose ? [purpose] : codePurposes;
  for (let i = 0; i < 40; i++) {
    const response = await fetch(`${baseUrl()}/api/dev/outbox?phone=${phone}`);
    const body = (await response.json()) as { messages: { text: string; purpose: string }[] };
    const newest = body.messages.find((m) => wanted.includes(m.purpose));
    const code = /\b(\d{6})\b/.exec(newest?.text ?? '')?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No code was sent to ${phone}`);
}

/** Holds back every request matching `url` (a glob) until `release()`: to look at the page without them. */
export async function holdRequests(page: Page, url: string): Promise<{ release: () => void }> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return { release: () => release() };
}
