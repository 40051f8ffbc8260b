/** The background of a box that sets something apart (a current value, a figure, a typed reason), light or dark. */
export const tintedBackground = 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-6))';
