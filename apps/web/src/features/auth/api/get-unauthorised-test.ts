import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { authKeys } from './query-keys';

/**
 * GET /api/v1/401: answers 401 after ten seconds, to check that an ended session sends the user to
 * /logout. The call is cancelled when the page is left before then.
 */
export function getUnauthorisedTest(signal?: AbortSignal): Promise<unknown> {
  return apiClient.get('/api/v1/401', { signal });
}

export function useUnauthorisedTest() {
  return useQuery({
    queryKey: authKeys.unauthorisedTest,
    queryFn: ({ signal }) => getUnauthorisedTest(signal),
    retry: false,
    gcTime: 0,
  });
}
