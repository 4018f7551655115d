import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiClient } from '../../../lib/api-client';
import { tokenSchema, type Token } from '@vexil/core';
import { tokenKeys } from './query-keys';

const tokenListSchema = z.array(tokenSchema);

/** GET /api/internal/v1/tokens: the signed-in member's access tokens, masked, newest first. */
export function getTokens(signal?: AbortSignal): Promise<Token[]> {
  return apiClient.get('/api/internal/v1/tokens', {
    schema: tokenListSchema,
    signal,
    // The Access Tokens tab shows a failed load in place, with Retry.
    notifyErrors: false,
  });
}

export const tokensQueryOptions = () =>
  queryOptions({ queryKey: tokenKeys.list(), queryFn: ({ signal }) => getTokens(signal) });

export function useTokens() {
  return useQuery(tokensQueryOptions());
}
