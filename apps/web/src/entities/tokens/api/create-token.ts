import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { tokenSchema, type Token, type TokenInput } from '@vexil/core';
import { tokenKeys } from './query-keys';

/**
 * POST /api/internal/v1/tokens → 201 with the token, whose `key` is the whole token: the only time
 * it is ever sent. The New Token modal shows failures, so no generic toasts.
 */
export function createToken(input: TokenInput): Promise<Token> {
  return apiClient.post('/api/internal/v1/tokens', input, { schema: tokenSchema, notifyErrors: false });
}

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });
}
