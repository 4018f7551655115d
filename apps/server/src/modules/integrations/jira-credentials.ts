import type { Executor } from '../../db/client';
import type { SecretBox } from '../../lib/secret-box';
import { secretContext } from './access';
import * as repo from './integrations.repository';
import type { IntegrationRecord, JiraConfiguration, JiraIntegrationRecord } from './integrations.types';
import type { JiraCredentials } from './jira-adapter';

/*
 * The stored Jira connection as the issue tracker (jira.service.ts, jira-issues.ts) uses it: its
 * configuration, its credentials with the API token decrypted, and the organisation's one connection.
 */

export const tokenContext = (organisationId: string) => secretContext('apiToken', organisationId);

export function configurationOf(row: IntegrationRecord): JiraConfiguration {
  return row.configuration as JiraConfiguration;
}

/** Throws SecretBoxError when the API token was stored under another SECRETS_KEY. */
export function credentialsOf(secrets: SecretBox, row: IntegrationRecord): JiraCredentials {
  const configuration = configurationOf(row);
  return {
    baseUrl: configuration.baseUrl,
    email: configuration.email ?? '',
    apiToken: row.secrets.apiToken
      ? secrets.decrypt(row.secrets.apiToken, tokenContext(row.organisationId))
      : '',
  };
}

export async function connectionOf(
  executor: Executor,
  organisationId: string,
): Promise<JiraIntegrationRecord | null> {
  const [row] = await repo.listIntegrations(executor, organisationId, 'jira');
  return (row as JiraIntegrationRecord | undefined) ?? null;
}
