import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type DefaultMantineColor,
  defaultCssVariablesResolver,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  mergeMantineTheme,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * A calm teal: trustworthy without the usual bank blue. Shades 6–9 reach 4.5:1 with white text; shade 7
 * (buttons, links, light-variant text) also as text on its own light tint.
 */
const brand: MantineColorsTuple = [
  '#e6fcf7',
  '#c6f3e8',
  '#98e7d5',
  '#66d9c0',
  '#3ecdaf',
  '#23bf9f',
  '#10826d',
  '#0e7561',
  '#0a6657',
  '#084f45',
];

/**
 * Mantine's palettes keep their light shades (0–5, backgrounds and dark-scheme text); shades 6–9 are
 * darkened so that white text on a filled badge or button, and coloured text or outlines on white, pale
 * grey or the colour's own light tint, reach WCAG AA 4.5:1 (axe found 3.2–4.2:1 with the defaults). The
 * light scheme draws filled, outline and light-variant text with shade 7 (`primaryShade`).
 */
function darkened(name: DefaultMantineColor, dark: [string, string, string, string]): MantineColorsTuple {
  const light = DEFAULT_THEME.colors[name]?.slice(0, 6) ?? [];
  return [...light, ...dark] as unknown as MantineColorsTuple;
}

const colors = {
  brand,
  red: darkened('red', ['#df2d2d', '#c92a2a', '#b02525', '#962020']),
  green: darkened('green', ['#28863a', '#247934', '#206c2f', '#1c5e29']),
  blue: darkened('blue', ['#1971c2', '#1864ab', '#14569a', '#10528c']),
  orange: darkened('orange', ['#c94d0a', '#b64609', '#a33f08', '#8e3607']),
  yellow: darkened('yellow', ['#ab6400', '#9a5a00', '#8b5100', '#794600']),
  teal: darkened('teal', ['#08855e', '#077956', '#076c4d', '#065e43']),
  grape: darkened('grape', ['#9c36b5', '#8f30a8', '#7f2c93', '#6e2580']),
  // Gray 6 is the light scheme's dimmed (helper, description) text: 5.3:1 on the page's pale grey.
  gray: darkened('gray', ['#62696f', '#495057', '#343a40', '#212529']),
};

/**
 * Dimmed, placeholder and error text at 4.5:1 or more on every background the app uses (white, pale grey,
 * and in the dark scheme the body, cards and table stripes up to dark-5). Mantine's defaults (gray-6 /
 * dark-2 dimmed, gray-5 / dark-3 placeholders, red-6 / red-8 errors) are 2.5–4:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-6)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-6)',
    '--mantine-color-error': 'var(--mantine-color-red-7)',
  },
  dark: {
    '--mantine-color-dimmed': '#a8a8a8',
    '--mantine-color-placeholder': '#a8a8a8',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});

// System fonts only (the CSP allows no third-party font hosts); Khmer and Chinese fall back to the
// platform's fonts for those scripts.
const fontFamily = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Noto Sans"',
  '"Noto Sans Khmer"',
  '"Khmer OS System"',
  '"Leelawadee UI"',
  '"PingFang SC"',
  '"Microsoft YaHei"',
  '"Noto Sans CJK SC"',
  'sans-serif',
].join(', ');

/** Variants that draw the colour as text or outline on the page's own background. */
const textVariants = new Set(['outline', 'subtle', 'light', 'transparent']);

/**
 * A fixed shade such as `color="red.7"` is the same in both schemes, so a dark-red outline button turns
 * unreadable on the dark background (2.5:1). For the text-like variants the shade is dropped: the colour's
 * own variables then use shade 7 in the light scheme and a light shade in the dark one.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (parsed.isThemeColor && parsed.shade !== undefined && textVariants.has(input.variant)) {
    return defaultVariantColorsResolver({ ...input, color: parsed.color });
  }
  return defaultVariantColorsResolver(input);
};

const theme = createTheme({
  primaryColor: 'brand',
  colors,
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamily,
  headings: { fontFamily, fontWeight: '700' },
  cursorType: 'pointer',
  variantColorResolver,
  components: {
    // A table wider than the screen scrolls sideways: keyboard users must be able to reach and scroll it.
    TableScrollContainer: { defaultProps: { tabIndex: 0 } },
    // Every pie in the app repeats its figures in a text legend beside it; recharts' unlabelled
    // role="img" slices and its focusable root would only add noise for screen readers and the keyboard.
    // (Named, not imported: @mantine/charts stays out of the main bundle.)
    PieChart: { defaultProps: { inert: true } },
  },
});

/**
 * The theme with translated labels for Mantine's built-in icon-only buttons (the close "×" of dialogs,
 * toasts and alerts), which otherwise have no accessible name.
 */
export function themeWithLabels(labels: { close: string }) {
  const closeButtonProps = { 'aria-label': labels.close };
  return createTheme({
    ...theme,
    components: {
      ...theme.components,
      Modal: { defaultProps: { closeButtonProps } },
      Drawer: { defaultProps: { closeButtonProps } },
      Notification: { defaultProps: { closeButtonProps } },
      Alert: { defaultProps: { closeButtonLabel: labels.close } },
    },
  });
}

/** localStorage key of the colour scheme; also read by src/web/boot.js before the app loads. */
export const colorSchemeStorageKey = 'hiram.color-scheme';

/**
 * The colours and font of the "Loading..." screen that index.html carries before the app (and Mantine's
 * CSS variables for this theme) has loaded: the same values the app's own loading screen draws with
 * (spinner: primary colour; text: dimmed), per colour scheme. Read by vite.config.ts at build time.
 */
export function loadingScreenLook() {
  const merged = mergeMantineTheme(DEFAULT_THEME, theme);
  const resolved = cssVariablesResolver(merged);
  /** `var(--mantine-color-gray-6)` → that shade's value; anything else as it is. */
  const value = (css: string) => {
    const match = /^var\(--mantine-color-([a-z]+)-(\d)\)$/.exec(css);
    return match ? (merged.colors[match[1] ?? '']?.[Number(match[2])] ?? css) : css;
  };
  const primary = merged.colors[merged.primaryColor] ?? DEFAULT_THEME.colors.blue;
  const shade = (scheme: 'light' | 'dark') =>
    typeof merged.primaryShade === 'number' ? merged.primaryShade : merged.primaryShade[scheme];
  // The page's background before Mantine's stylesheet applies (index.html no longer waits for it).
  const defaults = defaultCssVariablesResolver(merged);
  const body = (scheme: 'light' | 'dark') =>
    value(resolved[scheme]['--mantine-color-body'] ?? defaults[scheme]['--mantine-color-body'] ?? '');
  return {
    fontFamily: merged.fontFamily ?? 'sans-serif',
    light: {
      spinner: primary[shade('light')],
      text: value(resolved.light['--mantine-color-dimmed'] ?? ''),
      background: body('light'),
    },
    dark: {
      spinner: primary[shade('dark')],
      text: value(resolved.dark['--mantine-color-dimmed'] ?? ''),
      background: body('dark'),
    },
  };
}
