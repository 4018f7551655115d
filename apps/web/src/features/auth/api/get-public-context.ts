import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { authKeys } from './query-keys';
import { uiFlagsSchema } from '@vexil/core';

export const publicContextSchema = z.object({
  organisation: z.object({ id: z.string(), name: z.string(), domain: z.string() }).nullable(),
  flags: uiFlagsSchema,
});

export type PublicContext = z.infer<typeof publicContextSchema>;

/**
 * GET /api/v1/public/context: the organisation of this address (from the host, or from `domain` when
 * the organisation is in the path) and the UI flags, before sign-in.
 */
export function getPublicContext(domain: string | undefined, signal?: AbortSignal): Promise<PublicContext> {
  return apiClient.get('/api/v1/public/context', {
    query: { domain },
    schema: publicContextSchema,
    authenticated: false,
    notifyErrors: false,
    signal,
  });
}

export function publicContextQueryOptions(domain: string | undefined) {
  return queryOptions({
    queryKey: authKeys.publicContext(domain ?? null),
    queryFn: ({ signal }) => getPublicContext(domain, signal),
    staleTime: 5 * 60_000,
  });
}

export function usePublicContext(domain: string | undefined) {
  return useQuery(publicContextQueryOptions(domain));
}
