import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { authKeys } from './query-keys';
import { uiFlagsSchema, type PublicSso } from '@vexil/core';

/*
 * Core's publicSsoSchema, restated: core's single sign-on module would bring every SSO schema and
 * message into the sign-in page's first download (docs/architecture.md "The dashboard"). `satisfies`
 * keeps the two in step.
 */
const publicSsoSchema = z.object({
  displayName: z.string(),
  required: z.boolean(),
}) satisfies z.ZodType<PublicSso>;

export const publicContextSchema = z.object({
  organisation: z.object({ id: z.string(), name: z.string(), domain: z.string() }).nullable(),
  flags: uiFlagsSchema,
  /** The organisation's single sign-on, null when it has none (or for no organisation). */
  sso: publicSsoSchema.nullable().default(null),
  /** Organisations live on `{domain}.{baseDomain}`. */
  baseDomain: z.string().optional(),
});

export type PublicContext = z.infer<typeof publicContextSchema>;

/**
 * GET /api/v1/public/context: the organisation of this address (from the host, or from `domain` when
 * the organisation is in the path), its single sign-on if any, and the UI flags, before sign-in.
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
