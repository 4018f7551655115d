import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import type { Project } from '@vexil/core';
import { NotFound } from '../../components/not-found';
import { useFlag } from '../../lib/flags';
import { IntegrationsAdmin } from '../../features/integrations/components/integrations-admin';
import { JiraConnectPage } from '../../features/integrations/components/jira-connect-page';
import { JiraIntegrationPage } from '../../features/integrations/components/jira-integration-page';
import { ProjectWebhooks } from '../../features/integrations/components/project-webhooks';

/** The Jira connect page's place among the connections' ids: /admin/integrations/jira/connect. */
const CONNECT = 'connect';

/**
 * Admin › Integrations: /admin/integrations, /admin/integrations/jira/connect and
 * /admin/integrations/jira/{jiraIntegrationId} (docs/product.md §2). The Jira pages need flag
 * jira-integration; anything else below the tab is not found. `subPath` is the tab's second segment.
 */
export function IntegrationsPanel({ subPath }: { subPath: string | undefined }) {
  const { jiraIntegrationId } = useParams();
  const jira = useFlag('jira-integration');
  if (jiraIntegrationId !== undefined) {
    if (!jira) return <NotFound />;
    return jiraIntegrationId === CONNECT ? (
      <JiraConnectPage />
    ) : (
      <JiraIntegrationPage key={jiraIntegrationId} id={jiraIntegrationId} />
    );
  }
  if (subPath !== undefined) return <NotFound />;
  return <IntegrationsAdmin />;
}

function WebhooksSection({ project }: { project: Project }) {
  return useFlag('integrations') ? <ProjectWebhooks project={project} /> : null;
}

/** The project admin page's Webhooks section (flag integrations), below its environments. */
export function projectIntegrationSections(project: Project): ReactNode {
  return <WebhooksSection key={project.key} project={project} />;
}
