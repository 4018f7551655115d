/*
 * docs/product.md "Top navigation" (appearance): the dashboard is light or dark as the user chose in
 * the profile menu, or as the system prefers until they choose. The choice is kept in this browser
 * under one key, which public/color-scheme.js also reads to set the scheme before the first paint.
 */
import { localStorageColorSchemeManager, type MantineProviderProps } from '@mantine/core';

export const COLOR_SCHEME_STORAGE_KEY = 'vexil-color-scheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

/**
 * The MantineProvider's colour scheme: until the user chooses, the system's preference
 * (`prefers-color-scheme`) decides.
 */
export const colorSchemeProps = {
  defaultColorScheme: 'auto',
  colorSchemeManager,
} satisfies Pick<MantineProviderProps, 'defaultColorScheme' | 'colorSchemeManager'>;
