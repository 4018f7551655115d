/** The impressions domain's cache keys. */
export const impressionKeys = {
  all: ['impressions'] as const,
  /** Impressions per variant and day of one control (one environment of a feature). */
  daily: (featureControlId: string) => [...impressionKeys.all, 'daily', featureControlId] as const,
};
