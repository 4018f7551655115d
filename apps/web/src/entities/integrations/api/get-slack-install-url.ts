import { useMutation } from '@tanstack/react-query';
import { slackInstallSchema } from '@vexil/core';
import { apiClient } from '../../../lib/api-client';

/**
 * GET /api/v1/integrations/slack/install → {url}: Slack's authorisation page, with a one-time state the
 * server checks when Slack sends the admin back to its OAuth endpoint (the incoming-webhook scope). The
 * browser goes there; the server's callback returns to /admin/integrations?installed=slack or ?error=….
 * The caller says how it went.
 */
export async function getSlackInstallUrl(): Promise<string> {
  const { url } = await apiClient.get('/api/v1/integrations/slack/install', {
    schema: slackInstallSchema,
    notifyErrors: false,
  });
  return url;
}

/** A mutation rather than a query: each Add asks for a fresh state, and nothing is cached. */
export function useSlackInstallUrl() {
  return useMutation({ mutationFn: getSlackInstallUrl });
}
