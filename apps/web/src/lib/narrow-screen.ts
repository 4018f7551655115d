import { useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the window is narrower than the `sm` breakpoint (a phone), where lists show cards instead of
 * tables that would scroll sideways. One layout is rendered, not two with one hidden by CSS, so links
 * and switches keep a single accessible name each. Read on the first render (no flash of the table on a
 * phone); where media queries are unknown (jsdom) it answers false: the table.
 */
export function useNarrowScreen(): boolean {
  const theme = useMantineTheme();
  return (
    useMediaQuery(`(max-width: calc(${theme.breakpoints.sm} - 0.1px))`, false, {
      getInitialValueInEffect: false,
    }) ?? false
  );
}
