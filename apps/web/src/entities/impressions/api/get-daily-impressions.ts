import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { variantDailyImpressionsSchema, type VariantDailyImpressions } from '@vexil/core';
import { impressionKeys } from './query-keys';

/**
 * GET /api/v1/variant-daily-impressions?featureControlId={id}: impressions per variant for each of the
 * last 30 days of one control (one environment of a feature).
 */
export function getDailyImpressions(
  featureControlId: string,
  signal?: AbortSignal,
): Promise<VariantDailyImpressions> {
  return apiClient.get('/api/v1/variant-daily-impressions', {
    schema: variantDailyImpressionsSchema,
    query: { featureControlId },
    signal,
  });
}

export const dailyImpressionsQueryOptions = (featureControlId: string) =>
  queryOptions({
    queryKey: impressionKeys.daily(featureControlId),
    queryFn: ({ signal }) => getDailyImpressions(featureControlId, signal),
  });

export function useDailyImpressions(featureControlId: string) {
  return useQuery(dailyImpressionsQueryOptions(featureControlId));
}
