import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** A calm teal: trustworthy without the usual bank blue. Shade 7 keeps white text above 4.5:1 contrast. */
const brand: MantineColorsTuple = [
  '#e6fcf7',
  '#c6f3e8',
  '#98e7d5',
  '#66d9c0',
  '#3ecdaf',
  '#23bf9f',
  '#14a388',
  '#0b7d69',
  '#0a6657',
  '#084f45',
];

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

export const theme = createTheme({
  primaryColor: 'brand',
  colors: { brand },
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamily,
  headings: { fontFamily, fontWeight: '700' },
  cursorType: 'pointer',
});

/** localStorage key of the colour scheme; also read by public/boot.js before the app loads. */
export const colorSchemeStorageKey = 'hiram.color-scheme';
