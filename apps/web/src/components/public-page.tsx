import type { ReactNode } from 'react';
import { Box, Center, Paper, Stack, Text } from '@mantine/core';
import { Logo } from './logo';

/** The frame of the signed-out screens: the logo over a centred card. */
export function PublicPage({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <Box
      component="main"
      bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))"
      mih="100vh"
    >
      <Center mih="100vh" px="md" py={48}>
        <Stack w="100%" maw={420} gap="xl" align="stretch">
          <Center>
            <Logo size={40} />
          </Center>
          <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', xs: 32 }}>
            {children}
          </Paper>
          {footer ? (
            <Text size="sm" c="dimmed" ta="center">
              {footer}
            </Text>
          ) : null}
        </Stack>
      </Center>
    </Box>
  );
}
