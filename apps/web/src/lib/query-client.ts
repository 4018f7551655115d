import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** How long before the one retry of a call that got no answer. */
export const NO_ANSWER_RETRY_DELAY_MS = 300;

/**
 * A failed load shows its message at once (docs/product.md §8): screens that fail show a Retry
 * button, so the client does not keep the user looking at a skeleton while it retries by itself.
 * An answer from the server is not retried: a 4xx will not change, a 500 rarely does within seconds,
 * and a 503 asks for 5 s (`Retry-After`), longer than anyone should wait for a list. Only a call that
 * got no answer (status 0: a dropped connection, a server restarting) is tried once more, quickly.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return isApiError(error) && error.status === 0 && failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: NO_ANSWER_RETRY_DELAY_MS,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
