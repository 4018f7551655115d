import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Button, Group, MultiSelect, Stack, Text } from '@mantine/core';
import {
  integrationFiltersSchema,
  type InitialPayload,
  type Integration,
  type IntegrationFilters,
} from '@vexil/core';
import { applyFieldErrors, FormFailure, formFailureMessage } from '../../../components/form-failure';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import { useSaveIntegrationFilters } from '../../../entities/integrations/api/save-integration-filters';
import { ALL, EVENT_KIND_LABELS, EVENT_KIND_OPTIONS } from './event-kinds';

export const FILTERS_SAVED_MESSAGE = 'Integration filters saved.';

type FormValues = z.input<typeof integrationFiltersSchema>;
type Projects = InitialPayload['projects'];
/** A Slack integration: the kind that has filters. */
export type SlackIntegration = Extract<Integration, { type: 'slack' }>;

const FIELDS = ['projectKeys', 'environmentKeys', 'events'] as const;

/**
 * The environments to choose from: those of the chosen projects (of every project when none is chosen),
 * one option per key, as filters name environments by key across projects. A key whose environments are
 * named differently shows its key.
 */
function environmentOptions(projects: Projects, projectKeys: readonly string[]) {
  const names = new Map<string, Set<string>>();
  for (const project of projects) {
    if (projectKeys.length > 0 && !projectKeys.includes(project.key)) continue;
    for (const environment of project.environments) {
      const set = names.get(environment.key) ?? new Set<string>();
      set.add(environment.name);
      names.set(environment.key, set);
    }
  }
  return [...names].map(([key, set]) => ({ value: key, label: set.size === 1 ? [...set][0]! : key }));
}

/** "All", or the chosen names: what an integration passes on, in a line. */
export function filterSummary(
  filters: IntegrationFilters,
  projects: Projects,
): { projects: string; environments: string; events: string } {
  const projectNames = filters.projectKeys.map(
    (key) => projects.find((project) => project.key === key)?.name ?? key,
  );
  return {
    projects: projectNames.length ? projectNames.join(', ') : ALL,
    environments: filters.environmentKeys.length ? filters.environmentKeys.join(', ') : ALL,
    events: filters.events.length ? filters.events.map((event) => EVENT_KIND_LABELS[event]).join(', ') : ALL,
  };
}

/**
 * Which changes an integration passes on: projects, environments (by key) and kinds of change. Nothing
 * chosen in a list means all of them, including those created later.
 */
export function IntegrationFiltersForm({
  integration,
  projects,
}: {
  integration: SlackIntegration;
  /** The organisation's projects (the session's: modals sit outside the session's provider). */
  projects: Projects;
}) {
  const save = useSaveIntegrationFilters();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    formState: { isSubmitting },
  } = useForm<FormValues, unknown, IntegrationFilters>({
    resolver: zodResolver(integrationFiltersSchema),
    defaultValues: {
      projectKeys: [...integration.filters.projectKeys],
      environmentKeys: [...integration.filters.environmentKeys],
      events: [...integration.filters.events],
    },
  });
  const watchedProjects = useWatch({ control, name: 'projectKeys' });
  const projectKeys = useMemo(() => watchedProjects ?? [], [watchedProjects]);
  const environments = useMemo(() => environmentOptions(projects, projectKeys), [projects, projectKeys]);
  // A stored key no longer among the options (a project deleted, or not chosen) still shows, to be removed.
  const chosenEnvironments = useWatch({ control, name: 'environmentKeys' }) ?? [];
  const environmentData = [
    ...environments,
    ...chosenEnvironments
      .filter((key) => !environments.some((option) => option.value === key))
      .map((key) => ({ value: key, label: key })),
  ];
  const projectData = [
    ...projects.map((project) => ({ value: project.key, label: project.name })),
    ...projectKeys
      .filter((key) => !projects.some((project) => project.key === key))
      .map((key) => ({ value: key, label: key })),
  ];

  const onSubmit = handleSubmit(async (filters) => {
    setFailure(null);
    try {
      await save.mutateAsync({ id: integration.id, filters });
    } catch (error) {
      applyFieldErrors(error, FIELDS, setError);
      setFailure(formFailureMessage(error));
      return;
    }
    notifySuccess(FILTERS_SAVED_MESSAGE);
    closeModal();
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Integration filters">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Choose which changes are posted. Leave a list empty for all of them, including those added later.
        </Text>
        <FormFailure message={failure} />
        <Controller
          control={control}
          name="projectKeys"
          render={({ field, fieldState }) => (
            <MultiSelect
              label="Projects"
              placeholder={field.value?.length ? undefined : ALL}
              data={projectData}
              value={field.value ?? []}
              onChange={(next) => {
                field.onChange(next);
                // Environments that none of the chosen projects has any more are dropped.
                if (next.length > 0) {
                  const keys = new Set(environmentOptions(projects, next).map((option) => option.value));
                  setValue(
                    'environmentKeys',
                    (getValues('environmentKeys') ?? []).filter((key) => keys.has(key)),
                  );
                }
              }}
              onBlur={field.onBlur}
              searchable
              clearable
              data-autofocus
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="environmentKeys"
          render={({ field, fieldState }) => (
            <MultiSelect
              label="Environments"
              placeholder={field.value?.length ? undefined : ALL}
              data={environmentData}
              value={field.value ?? []}
              onChange={field.onChange}
              onBlur={field.onBlur}
              searchable
              clearable
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="events"
          render={({ field, fieldState }) => (
            <MultiSelect
              label="Events"
              placeholder={field.value?.length ? undefined : ALL}
              data={EVENT_KIND_OPTIONS}
              value={field.value ?? []}
              onChange={(next) => field.onChange(next)}
              onBlur={field.onBlur}
              clearable
              error={fieldState.error?.message}
            />
          )}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Save filters
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the filters of an integration on the modal stack. */
export function openIntegrationFilters(
  integration: SlackIntegration,
  title: string,
  projects: Projects,
): string {
  return showModal({
    title,
    size: 'lg',
    children: <IntegrationFiltersForm integration={integration} projects={projects} />,
  });
}
