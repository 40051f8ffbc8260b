import { Alert, DEFAULT_THEME, Modal, mergeMantineTheme } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../lib/i18n';
import { AppProviders } from './providers';
import { createQueryClient } from './query-client';
import { cssVariablesResolver, themeWithLabels } from './theme';

const theme = mergeMantineTheme(DEFAULT_THEME, themeWithLabels({ close: 'Close' }));

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = (hex.slice(1).match(/../g) ?? []).map((part) => {
      const v = Number.parseInt(part, 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
}

/** Resolves `var(--mantine-color-gray-6)` to the theme's hex value. */
function resolve(value: string | undefined): string {
  const match = /^var\(--mantine-color-([a-z]+)-(\d)\)$/.exec(value ?? '');
  if (!match) return value ?? '';
  return theme.colors[match[1]!]![Number(match[2])]!;
}

const gray = theme.colors.gray!;
const darkPalette = DEFAULT_THEME.colors.dark;
// Backgrounds text sits on: white, the pages' pale greys and table stripes; dark body, cards and stripes.
const lightBackgrounds = ['#ffffff', gray[0]!, gray[1]!];
const darkBackgrounds = [darkPalette[5], darkPalette[6], darkPalette[7], darkPalette[8]];

describe('theme colours (WCAG AA 4.5:1 for normal text)', () => {
  const used = ['brand', 'red', 'green', 'blue', 'orange', 'yellow', 'teal', 'grape', 'gray'];

  // The light scheme draws filled, outline and light-variant colours with shade 7; fixed shades such as
  // `green.8` appear on filled badges and buttons.
  it.each(used)('%s: white on shades 6-9; shades 7-9 as text on light backgrounds', (name) => {
    const palette = theme.colors[name]!;
    for (const shade of [6, 7, 8, 9]) {
      expect(contrast(palette[shade]!, '#ffffff'), `white on ${name}.${shade}`).toBeGreaterThanOrEqual(4.5);
    }
    for (const shade of [7, 8, 9]) {
      for (const background of lightBackgrounds) {
        expect(
          contrast(palette[shade]!, background),
          `${name}.${shade} on ${background}`,
        ).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('dimmed, placeholder and error text in both schemes', () => {
    const resolved = cssVariablesResolver(theme);
    const light: Record<string, string> = resolved.light;
    const dark: Record<string, string> = resolved.dark;
    for (const key of ['--mantine-color-dimmed', '--mantine-color-placeholder', '--mantine-color-error']) {
      for (const background of lightBackgrounds) {
        expect(contrast(resolve(light[key]), background), `light ${key}`).toBeGreaterThanOrEqual(4.5);
      }
      for (const background of darkBackgrounds) {
        expect(contrast(resolve(dark[key]), background), `dark ${key}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});

describe('built-in close buttons', () => {
  it('are named in the reader language, and follow a language switch', async () => {
    render(
      <AppProviders queryClient={createQueryClient()} env="test">
        <Modal opened onClose={() => {}} title="Reject Loan">
          body
        </Modal>
        <Alert withCloseButton title="Note">
          text
        </Alert>
      </AppProviders>,
    );
    expect(screen.getAllByRole('button', { name: 'Close' })).toHaveLength(2);
    await act(() => i18n.changeLanguage('zh'));
    expect(screen.getAllByRole('button', { name: '关闭' })).toHaveLength(2);
  });
});
