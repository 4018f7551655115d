import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { integrationSchema, type Integration } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { integrationKeys } from './query-keys';

const integrationListSchema = z.array(integrationSchema);

/**
 * GET /api/v1/integrations (organisation admins): the installed integrations, each with who installed it,
 * its Slack channel (and filters) or Jira address. The Integrations tab shows a failed load in place, with
 * Retry.
 */
export function getIntegrations(signal?: AbortSignal): Promise<Integration[]> {
  return apiClient.get('/api/v1/integrations', {
    schema: integrationListSchema,
    notifyErrors: false,
    signal,
  });
}

export const integrationsQueryOptions = () =>
  queryOptions({ queryKey: integrationKeys.list(), queryFn: ({ signal }) => getIntegrations(signal) });

export function useIntegrations() {
  return useQuery(integrationsQueryOptions());
}
