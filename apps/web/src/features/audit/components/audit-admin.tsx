import { useState } from 'react';
import { Button, Group, Select, SimpleGrid, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilterOff } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { AUDIT_ACTIONS, type AuditAction } from '@vexil/core';
import { AuditLog } from '../../../components/audit/audit-log';
import { useAuditLog, type AuditFilters } from '../../../entities/audit/api/get-audit-items';
import { useProjectFeatures } from '../../../entities/features/api/get-project-features';
import { useProjects } from '../../../entities/projects/api/get-projects';
import { useMembers } from '../../../entities/team/api/get-members';

/** How each audited action reads in the Action filter. */
export const AUDIT_ACTION_LABELS: Readonly<Record<AuditAction, string>> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  archive: 'Archived',
  restore: 'Restored',
  login: 'Signed in',
  other: 'Other',
};

const isAuditAction = (value: string | null): value is AuditAction =>
  value !== null && (AUDIT_ACTIONS as readonly string[]).includes(value);

/** The filters kept in the address (`project`, `feature`, `member`, `action`), so a reload or a shared link keeps them. */
function useAuditFilters() {
  const [params, setParams] = useSearchParams();
  const action = params.get('action');
  const filters: AuditFilters = {
    projectKey: params.get('project') ?? undefined,
    featureKey: (params.get('project') && params.get('feature')) || undefined,
    actorId: params.get('member') ?? undefined,
    action: isAuditAction(action) ? action : undefined,
  };
  const set = (name: string, value: string | null, also: Record<string, null> = {}) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, v] of Object.entries({ [name]: value, ...also })) {
          if (v) next.set(key, v);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  const clear = () => setParams(new URLSearchParams(), { replace: true });
  return { filters, set, clear };
}

/** The Feature filter: the chosen project's features, searched as the user types. */
function FeatureFilter({
  projectKey,
  value,
  onChange,
}: {
  projectKey: string | undefined;
  value: string | undefined;
  onChange: (key: string | null) => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const features = useProjectFeatures(projectKey ?? null, debounced);
  const options = (features.data ?? []).map((feature) => ({ value: feature.key, label: feature.name }));
  // The chosen feature stays an option while other text is typed.
  if (value && !options.some((option) => option.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      label="Feature"
      placeholder={projectKey ? 'Any feature' : 'Choose a project first'}
      disabled={!projectKey}
      data={options}
      value={value ?? null}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={features.isFetching ? 'Searching…' : 'No feature matches'}
      clearable
    />
  );
}

/**
 * Admin › Audit (docs/product.md §2): the organisation's audit log, for every member, narrowed by
 * project (and feature), member and action.
 */
export function AuditAdmin() {
  const { filters, set, clear } = useAuditFilters();
  const audit = useAuditLog(filters);
  const projects = useProjects();
  const members = useMembers();
  const filtered = Object.values(filters).some(Boolean);
  return (
    <AuditLog
      audit={audit}
      emptyText={filtered ? 'No entry matches these filters.' : 'Nothing has been recorded yet.'}
      filters={
        <Stack gap={4}>
          <SimpleGrid
            cols={{ base: 1, xs: 2, md: 4 }}
            spacing="sm"
            role="search"
            aria-label="Filter the audit log"
          >
            <Select
              label="Project"
              placeholder="Any project"
              data={(projects.data ?? []).map((project) => ({ value: project.key, label: project.name }))}
              value={filters.projectKey ?? null}
              // Another project's feature is not one of this project's.
              onChange={(key) => set('project', key, { feature: null })}
              searchable
              clearable
            />
            <FeatureFilter
              projectKey={filters.projectKey}
              value={filters.featureKey}
              onChange={(key) => set('feature', key)}
            />
            <Select
              label="Member"
              placeholder="Anyone"
              data={(members.data ?? []).map((member) => ({ value: member.id, label: member.name }))}
              value={filters.actorId ?? null}
              onChange={(id) => set('member', id)}
              searchable
              clearable
            />
            <Select
              label="Action"
              placeholder="Any action"
              data={AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] }))}
              value={filters.action ?? null}
              onChange={(action) => set('action', action)}
              clearable
            />
          </SimpleGrid>
          {filtered ? (
            <Group justify="flex-end">
              <Button
                variant="subtle"
                size="xs"
                leftSection={<IconFilterOff size={14} aria-hidden="true" />}
                onClick={clear}
              >
                Clear filters
              </Button>
            </Group>
          ) : null}
        </Stack>
      }
    />
  );
}
