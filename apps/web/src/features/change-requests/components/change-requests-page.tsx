import type { ReactNode } from 'react';
import { Button, Group, Pagination, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconGitPullRequest, IconPlus, IconSettings } from '@tabler/icons-react';
import {
  CHANGE_REQUEST_PAGE_SIZE,
  can,
  denialOf,
  hasProductionEditRights,
  type EnvironmentConstraint,
  type Principal,
} from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { useChangeRequests } from '../../../entities/change-requests/api/get-change-requests';
import { openApprovalSettingsModal } from './approval-settings-form';
import {
  ChangeRequestFilterBar,
  useChangeRequestFilters,
  type ChangeRequestFilters,
} from './change-request-filters';
import { ChangeRequestsTable } from './change-requests-table';
import { openNewChangeRequestForm } from './new-change-request-form';

type EnvironmentFacts = { key: string; name: string; production: boolean; tags: readonly string[] };

export type ChangeRequestsPageProps = {
  project: { key: string; name: string; id?: string; environments: EnvironmentFacts[] };
  environment: EnvironmentFacts;
  /** The signed-in user, whose rights decide which environments they may draft changes for. */
  user: Principal;
};

const PAGE_LABELS = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' };

/** What the empty list says, by filter. */
function emptyMessage(filters: ChangeRequestFilters): string {
  if (filters.view === 'to-review') return 'No change request is waiting for your review.';
  if (filters.view === 'mine') return 'You have no change requests here yet.';
  if (filters.state !== null || filters.scope === 'current')
    return 'No change request matches these filters.';
  return 'No change requests yet. Changes to a protected environment are drafted, reviewed and applied here.';
}

/**
 * The change requests of a project (docs/adr/0024-change-requests.md): To review, Mine or all, by state,
 * in every environment or the current one, 20 a page, newest activity first; New change request opens
 * a draft. Organisation admins and production editors also see the environment's approval settings.
 */
export function ChangeRequestsPage({ project, environment, user }: ChangeRequestsPageProps) {
  const { filters, setView, setState, setScope, setPage } = useChangeRequestFilters();
  const list = useChangeRequests({
    projectKey: project.key,
    reviewer: filters.view === 'to-review' ? 'me' : undefined,
    author: filters.view === 'mine' ? 'me' : undefined,
    state: filters.state ?? undefined,
    environmentKey: filters.scope === 'current' ? environment.key : undefined,
    page: filters.page - 1,
  });

  const constraint = (facts: EnvironmentFacts): EnvironmentConstraint => ({
    production: facts.production,
    tags: facts.tags,
    projectId: project.id,
  });
  const draftable = project.environments.filter((candidate) =>
    can(user, 'create', { type: 'changeRequest', environment: constraint(candidate) }),
  );
  const createDenial = draftable.length
    ? null
    : (denialOf(user, 'create', { type: 'changeRequest', environment: constraint(environment) })?.message ??
      null);
  const newRequest = () =>
    openNewChangeRequestForm({
      projectKey: project.key,
      environments: draftable,
      environmentKey: draftable.some((candidate) => candidate.key === environment.key)
        ? environment.key
        : (draftable[0]?.key ?? ''),
    });

  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.totalElements / CHANGE_REQUEST_PAGE_SIZE)) : 1;
  let body: ReactNode;
  if (list.isError && !data) {
    body = (
      <LoadError
        title="We could not load the change requests."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (data && data.content.length === 0) {
    body = (
      <EmptyState maw={520}>
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
          <IconGitPullRequest size={26} />
        </ThemeIcon>
        <Text fw={600}>{emptyMessage(filters)}</Text>
      </EmptyState>
    );
  } else {
    body = (
      <Stack gap="md">
        <ChangeRequestsTable requests={data?.content ?? null} projectKey={project.key} />
        {pages > 1 ? (
          <Group justify="space-between" gap="md">
            <Text size="sm" c="dimmed" aria-live="polite">
              {data?.totalElements.toLocaleString('en')} change requests
            </Text>
            <Pagination
              total={pages}
              value={Math.min(filters.page, pages)}
              onChange={setPage}
              size="sm"
              getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
              getControlProps={(control) => ({ 'aria-label': PAGE_LABELS[control] })}
            />
          </Group>
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4} miw={0}>
          <Title order={1}>Change requests</Title>
          <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Changes drafted, reviewed and applied together in {project.name}
          </Text>
        </Stack>
        <Group gap="sm">
          {hasProductionEditRights(user) ? (
            <Button
              variant="default"
              leftSection={<IconSettings size={16} aria-hidden="true" />}
              onClick={() => openApprovalSettingsModal({ projectKey: project.key, environment, user })}
            >
              Approval settings
            </Button>
          ) : null}
          <DisabledReason denial={createDenial}>
            <Button
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              disabled={createDenial !== null}
              onClick={newRequest}
            >
              New change request
            </Button>
          </DisabledReason>
        </Group>
      </Group>
      <ChangeRequestFilterBar
        filters={filters}
        environmentName={environment.name}
        onView={setView}
        onState={setState}
        onScope={setScope}
      />
      {body}
    </Stack>
  );
}
