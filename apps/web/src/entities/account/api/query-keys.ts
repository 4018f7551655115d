/** The account domain's cache keys. */
export const accountKeys = {
  all: ['account'] as const,
  /** The initial payload (GET /api/v1/initial) that the session is made of. */
  initial: ['account', 'initial'] as const,
};
