import { queryOptions, useQuery } from '@tanstack/react-query';
import { integrationsAvailableSchema, type IntegrationsAvailable } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { integrationKeys } from './query-keys';

/**
 * GET /api/v1/integrations/available (organisation admins): whether this server can add Slack (it has a
 * Slack app), and whether Jira may be connected (flag jira-integration) or already is (its id). The tab
 * shows a failed load in place, with Retry.
 */
export function getIntegrationsAvailable(signal?: AbortSignal): Promise<IntegrationsAvailable> {
  return apiClient.get('/api/v1/integrations/available', {
    schema: integrationsAvailableSchema,
    notifyErrors: false,
    signal,
  });
}

export const integrationsAvailableQueryOptions = () =>
  queryOptions({
    queryKey: integrationKeys.available(),
    queryFn: ({ signal }) => getIntegrationsAvailable(signal),
  });

export function useIntegrationsAvailable() {
  return useQuery(integrationsAvailableQueryOptions());
}
