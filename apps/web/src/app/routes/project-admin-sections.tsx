import type { ReactNode } from 'react';
import type { Project } from '@vexil/core';
import { ApprovalSettingsSection } from '../../features/change-requests/components/approval-settings-section';
import { useSession } from '../../lib/session';
import { projectIntegrationSections } from './integrations-panel';

function ChangeRequestSection({ project }: { project: Project }) {
  return <ApprovalSettingsSection project={project} user={useSession().principalUser} />;
}

/**
 * The sections of a project's admin page below its environments: each environment's approval settings
 * (change requests), then the integrations' (webhooks).
 */
export function projectAdminSections(project: Project): ReactNode {
  return (
    <>
      <ChangeRequestSection key={`approvals-${project.key}`} project={project} />
      {projectIntegrationSections(project)}
    </>
  );
}
