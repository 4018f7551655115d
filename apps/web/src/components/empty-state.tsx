import type { ReactNode } from 'react';
import { Center, Stack, type MantineSpacing, type StyleProp } from '@mantine/core';

/** The centred message a list shows when it has nothing (or nothing matching) to show. */
export function EmptyState({
  children,
  py = 64,
  gap = 'md',
  maw,
}: {
  children: ReactNode;
  py?: StyleProp<MantineSpacing>;
  gap?: MantineSpacing;
  maw?: number;
}) {
  return (
    <Center py={py}>
      <Stack align="center" gap={gap} ta="center" maw={maw}>
        {children}
      </Stack>
    </Center>
  );
}
