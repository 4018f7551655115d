/** The environments domain's cache keys. */
export const environmentKeys = {
  all: ['environments'] as const,
  /** One environment with its SDK keys. */
  detail: (projectKey: string, environmentKey: string) =>
    [...environmentKeys.all, 'detail', projectKey, environmentKey] as const,
};
