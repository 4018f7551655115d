import { queryOptions, useQuery } from '@tanstack/react-query';
import { ssoSettingsSchema, type SsoSettings } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';
import { ssoKeys } from './query-keys';

/**
 * GET /api/v1/sso (organisation admins): the organisation's connection, null until one is set up, and
 * the redirect URI to register at the identity provider. The client secret never comes back, only
 * whether one is stored. The Single sign-on tab shows a failed load in place, with Retry.
 */
export function getSsoSettings(signal?: AbortSignal): Promise<SsoSettings> {
  return apiClient.get('/api/v1/sso', { schema: ssoSettingsSchema, notifyErrors: false, signal });
}

export const ssoSettingsQueryOptions = () =>
  queryOptions({ queryKey: ssoKeys.settings(), queryFn: ({ signal }) => getSsoSettings(signal) });

export function useSsoSettings() {
  return useQuery(ssoSettingsQueryOptions());
}
