/** The audit domain's cache keys. */
export const auditKeys = {
  all: ['audit'] as const,
  /** The organisation's audit log. */
  organisation: ['audit', 'organisation'] as const,
  /** Every feature's audit log: each feature write adds to one. */
  features: () => [...auditKeys.all, 'feature'] as const,
  feature: (projectKey: string, featureKey: string) =>
    [...auditKeys.features(), projectKey, featureKey] as const,
};
