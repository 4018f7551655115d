/** The cache keys of the sign-in screens' own calls. */
export const authKeys = {
  all: ['auth'] as const,
  /** The organisation of an address (`domain`, or the host's when null) and the public UI flags. */
  publicContext: (domain: string | null) => [...authKeys.all, 'public-context', domain] as const,
  unauthorisedTest: ['auth', 'unauthorised-test'] as const,
};
