import type { ReactNode } from 'react';
import { Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFlask, IconPlus } from '@tabler/icons-react';
import { isApiError } from '../../../lib/api-client';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { EXPERIMENTS_NOT_IN_PLAN, denialOf, type Action, type Experiment, type Principal } from '@vexil/core';
import { useExperiments } from '../../../entities/experiments/api/get-experiments';
import { useArchiveExperiment } from '../../../entities/experiments/api/archive-experiment';
import { DisabledReason } from '../../../components/disabled-reason';
import { PlanLimitNotice } from '../../../components/plan-limit-notice';
import { usePlanAllows } from '../../../entities/billing/hooks/use-plan-limit';
import { EmptyState } from '../../../components/empty-state';
import { errorReason, LoadError } from '../../../components/load-error';
import { openExperimentForm } from './experiment-form';
import { ExperimentsTable } from './experiments-table';

export const EXPERIMENTS_EMPTY_MESSAGE = 'No experiments yet';
export const EXPERIMENT_ARCHIVED_MESSAGE = 'Experiment archived.';

export type ExperimentsPageProps = {
  project: {
    key: string;
    name: string;
    /** The project's id, so that a custom role limited to some projects applies. */
    id?: string;
  };
  environment: { key: string; name: string; production: boolean; tags: readonly string[] };
  /** The signed-in user (the session's principalUser), whose authorities decide the buttons. */
  user: Principal;
};

/** Why the user may not `action` experiments here, in the server's words; null when they may. */
function experimentDenial(
  user: Principal,
  action: Action,
  environment: ExperimentsPageProps['environment'],
  projectId: string | undefined,
): string | null {
  const constraint = { production: environment.production, tags: environment.tags, projectId };
  return denialOf(user, action, { type: 'experiment', environment: constraint })?.message ?? null;
}

/** The id of the plan notice a New Experiment disabled by the plan points at. */
export const EXPERIMENTS_PLAN_ID = 'experiments-plan-limit';

/**
 * New Experiment: disabled with the reason in a tooltip without the rights (`denial`), and disabled,
 * described by the plan notice the header shows, on a plan without experiments (`onPlan` false).
 */
function NewExperimentButton({
  denial,
  onPlan,
  onClick,
}: {
  denial: string | null;
  onPlan: boolean;
  onClick: () => void;
}) {
  return (
    <DisabledReason denial={denial}>
      <Button
        leftSection={<IconPlus size={16} aria-hidden="true" />}
        disabled={denial !== null || !onPlan}
        aria-describedby={denial === null && !onPlan ? EXPERIMENTS_PLAN_ID : undefined}
        onClick={onClick}
      >
        New Experiment
      </Button>
    </DisabledReason>
  );
}

/**
 * docs/product.md §2 "Experiments": the environment's experiments that are not archived, newest first,
 * with New Experiment (disabled, with the reason, without create rights here or on a plan without
 * experiments), each one's enabled
 * switch (confirmed in production), Edit, Archive (confirmed) and, once started, Stats.
 */
export function ExperimentsPage({ project, environment, user }: ExperimentsPageProps) {
  const list = useExperiments({ projectKey: project.key, environmentKey: environment.key });
  const archive = useArchiveExperiment();

  const createDenial = experimentDenial(user, 'create', environment, project.id);
  const updateDenial = experimentDenial(user, 'update', environment, project.id);
  const archiveDenial = experimentDenial(user, 'delete', environment, project.id);
  // docs/product.md §9: a plan without `variantTesting` has no experiments (the server refuses too).
  const onPlan = usePlanAllows('variantTesting');

  const newExperiment = () => openExperimentForm({ projectKey: project.key, environment });
  const editExperiment = (experiment: Experiment) =>
    openExperimentForm({ projectKey: project.key, environment, experiment });

  const archiveOne = async (experiment: Experiment) => {
    const confirmed = await confirm({
      title: 'Archive Experiment',
      message: `Archive the experiment "${experiment.name}"? It leaves this list and its statistics are no longer shown.`,
      confirmLabel: 'Archive experiment',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await archive.mutateAsync(experiment.id);
    } catch (error) {
      // Someone else archived it first: the list refreshes, and the outcome is the one asked for.
      if (isApiError(error) && error.status === 404) notifySuccess(EXPERIMENT_ARCHIVED_MESSAGE);
      else notifyError(errorReason(error) || `We could not archive the experiment "${experiment.name}".`);
      return;
    }
    notifySuccess(EXPERIMENT_ARCHIVED_MESSAGE);
  };

  const data = list.data;
  let body: ReactNode;
  if (list.isError && !data) {
    body = (
      <LoadError
        title="We could not load the experiments."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (data && data.length === 0) {
    body = (
      <EmptyState maw={520}>
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
          <IconFlask size={26} />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {EXPERIMENTS_EMPTY_MESSAGE}
        </Text>
        <Text c="dimmed" size="sm">
          An experiment compares two variants of a feature on a goal your application reports, and tells you
          which one makes more users reach it.
        </Text>
        <NewExperimentButton denial={createDenial} onPlan={onPlan} onClick={newExperiment} />
      </EmptyState>
    );
  } else {
    body = (
      <ExperimentsTable
        experiments={data ?? null}
        projectKey={project.key}
        environment={environment}
        updateDenial={updateDenial}
        archiveDenial={archiveDenial}
        archivingId={archive.isPending ? archive.variables : null}
        onEdit={editExperiment}
        onArchive={(experiment) => void archiveOne(experiment)}
      />
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4} miw={0}>
          <Title order={1}>Experiments</Title>
          {/* Names are the user's: one without spaces wraps rather than widening the page. */}
          <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Conversion experiments in {project.name} / {environment.name}
          </Text>
        </Stack>
        <NewExperimentButton denial={createDenial} onPlan={onPlan} onClick={newExperiment} />
      </Group>
      {createDenial === null && !onPlan ? (
        <PlanLimitNotice id={EXPERIMENTS_PLAN_ID} message={EXPERIMENTS_NOT_IN_PLAN} />
      ) : null}
      {body}
    </Stack>
  );
}
