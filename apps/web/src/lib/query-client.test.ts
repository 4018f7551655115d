import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient, NO_ANSWER_RETRY_DELAY_MS, shouldRetry } from './query-client';

describe('query retries', () => {
  it('does not retry an answer from the server, whatever its status', () => {
    for (const status of [400, 403, 404, 409, 500, 503, 504])
      expect(shouldRetry(0, new ApiError({ status })), String(status)).toBe(false);
  });

  it('tries a call that got no answer once more, quickly', () => {
    expect(shouldRetry(0, new ApiError({ status: 0 }))).toBe(true);
    expect(shouldRetry(1, new ApiError({ status: 0 }))).toBe(false);
    expect(createQueryClient().getDefaultOptions().queries?.retryDelay).toBe(NO_ANSWER_RETRY_DELAY_MS);
    expect(NO_ANSWER_RETRY_DELAY_MS).toBeLessThanOrEqual(500);
  });

  it('does not retry an error that is not a failed call (a bug in the screen)', () => {
    expect(shouldRetry(0, new Error('boom'))).toBe(false);
  });
});
