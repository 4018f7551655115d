import { useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { colorSchemeProps } from '../lib/color-scheme';
import { createQueryClient } from '../lib/query-client';
import { theme } from './theme';

/** Theme (light or dark: lib/color-scheme) and server state: everything the router and its screens run inside. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider theme={theme} {...colorSchemeProps}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
