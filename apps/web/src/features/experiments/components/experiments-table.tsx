import type { ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconArchive, IconChartBar, IconPencil } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Experiment } from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { TruncatedText } from '../../../components/truncated-text';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { experimentStatsPath, featureDetailPath } from '../../../lib/paths';
import { experimentState, STATE_COLORS, STATE_LABELS } from './experiment-format';
import { ExperimentToggle } from './experiment-toggle';
import classes from './experiments.module.css';

export type ExperimentsTableProps = {
  /** null while the list first loads: skeletons stand in. */
  experiments: Experiment[] | null;
  projectKey: string;
  environment: { key: string; name: string; production: boolean; tags?: readonly string[] };
  /** Why the user may not switch or edit experiments here, or null when they may. */
  updateDenial: string | null;
  /** Why the user may not archive experiments here, or null when they may. */
  archiveDenial: string | null;
  /** The id of the experiment being archived, whose button spins. */
  archivingId: string | null;
  onEdit: (experiment: Experiment) => void;
  onArchive: (experiment: Experiment) => void;
};

const SKELETONS = 3;

type RowProps = Omit<ExperimentsTableProps, 'experiments' | 'archivingId'> & {
  experiment: Experiment;
  archiving: boolean;
};

/** The feature, linking to its page in this environment (plain text when it is gone). */
function FeatureLink({
  experiment,
  projectKey,
  environmentKey,
}: {
  experiment: Experiment;
  projectKey: string;
  environmentKey: string;
}) {
  if (!experiment.feature) {
    return (
      <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {experiment.featureKey}
      </Text>
    );
  }
  return (
    <Anchor
      component={Link}
      to={featureDetailPath(projectKey, environmentKey, experiment.feature.key)}
      size="sm"
      style={{ overflowWrap: 'anywhere' }}
    >
      {experiment.feature.name}
    </Anchor>
  );
}

/** "off vs on": the control, then the alternate. */
function Variants({ experiment }: { experiment: Experiment }) {
  return (
    <Group
      gap={6}
      wrap="wrap"
      aria-label={`Control ${experiment.control}, alternate ${experiment.variation}`}
    >
      <Code>{experiment.control}</Code>
      <Text size="xs" c="dimmed" aria-hidden="true">
        vs
      </Text>
      <Code>{experiment.variation}</Code>
    </Group>
  );
}

/** The state badge, with the winner under it once there is one. */
function State({ experiment }: { experiment: Experiment }) {
  const state = experimentState(experiment);
  const winner = experiment.results?.winningVariation;
  return (
    // The badge keeps its whole word rather than be squashed beside a long name.
    <Stack gap={2} align="flex-start" style={{ flexShrink: 0 }}>
      <Badge variant="light" color={STATE_COLORS[state]} style={{ flexShrink: 0, overflow: 'visible' }}>
        {STATE_LABELS[state]}
      </Badge>
      {winner ? (
        <Text size="xs" c="teal" style={{ overflowWrap: 'anywhere' }}>
          {winner} is winning
        </Text>
      ) : null}
    </Stack>
  );
}

/** Stats (once started), Edit and Archive. */
function Actions({
  experiment,
  projectKey,
  environment,
  updateDenial,
  archiveDenial,
  archiving,
  onEdit,
  onArchive,
}: RowProps) {
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap" className={classes.actions}>
      {experiment.startDate ? (
        <Button
          size="xs"
          variant="light"
          component={Link}
          to={experimentStatsPath(projectKey, environment.key, experiment.id)}
          leftSection={<IconChartBar size={14} aria-hidden="true" />}
          aria-label={`Stats of ${experiment.name}`}
        >
          Stats
        </Button>
      ) : null}
      <DisabledReason denial={updateDenial}>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconPencil size={14} aria-hidden="true" />}
          aria-label={`Edit ${experiment.name}`}
          disabled={updateDenial !== null}
          onClick={() => onEdit(experiment)}
        >
          Edit
        </Button>
      </DisabledReason>
      <DisabledReason denial={archiveDenial}>
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconArchive size={14} aria-hidden="true" />}
          aria-label={`Archive ${experiment.name}`}
          disabled={archiveDenial !== null}
          loading={archiving}
          onClick={() => onArchive(experiment)}
        >
          Archive
        </Button>
      </DisabledReason>
    </Group>
  );
}

function NameCell({ experiment }: { experiment: Experiment }) {
  return (
    <Stack gap={0} align="flex-start" miw={0}>
      <TruncatedText text={experiment.name} size="md" fw={500} />
      {experiment.description ? (
        <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {experiment.description}
        </Text>
      ) : null}
    </Stack>
  );
}

function ExperimentRow(props: RowProps) {
  const { experiment, projectKey, environment, updateDenial } = props;
  return (
    <Table.Tr>
      <Table.Td>
        <ExperimentToggle experiment={experiment} environment={environment} denial={updateDenial} />
      </Table.Td>
      <Table.Td>
        <NameCell experiment={experiment} />
      </Table.Td>
      <Table.Td>
        <FeatureLink experiment={experiment} projectKey={projectKey} environmentKey={environment.key} />
      </Table.Td>
      <Table.Td>
        <Code style={{ overflowWrap: 'anywhere' }}>{experiment.goalKey}</Code>
      </Table.Td>
      <Table.Td>
        <Variants experiment={experiment} />
      </Table.Td>
      <Table.Td>
        <State experiment={experiment} />
      </Table.Td>
      <Table.Td>
        <Actions {...props} />
      </Table.Td>
    </Table.Tr>
  );
}

function SkeletonRows() {
  return Array.from({ length: SKELETONS }, (_, index) => (
    <Table.Tr key={index} data-testid="experiment-skeleton">
      <Table.Td>
        <Skeleton height={20} width={36} radius="xl" />
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="70%" />
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="60%" />
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="70%" />
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="60%" />
      </Table.Td>
      <Table.Td>
        <Skeleton height={20} width={80} radius="xl" />
      </Table.Td>
      <Table.Td>
        <Group justify="flex-end">
          <Skeleton height={26} width={150} />
        </Group>
      </Table.Td>
    </Table.Tr>
  ));
}

/** A labelled line of a card: "Goal  checkout-completed". */
function CardLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" w={64} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <div style={{ minWidth: 0 }}>{children}</div>
    </Group>
  );
}

/** On a phone, a card per experiment: the same switch, facts and buttons, stacked. */
function ExperimentCard(props: RowProps) {
  const { experiment, projectKey, environment, updateDenial } = props;
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={8}>
        <Group gap="sm" wrap="nowrap" align="flex-start" justify="space-between">
          <Group gap="sm" wrap="nowrap" align="flex-start" miw={0}>
            <ExperimentToggle experiment={experiment} environment={environment} denial={updateDenial} />
            <NameCell experiment={experiment} />
          </Group>
          <State experiment={experiment} />
        </Group>
        <CardLine label="Feature">
          <FeatureLink experiment={experiment} projectKey={projectKey} environmentKey={environment.key} />
        </CardLine>
        <CardLine label="Goal">
          <Code style={{ overflowWrap: 'anywhere' }}>{experiment.goalKey}</Code>
        </CardLine>
        <CardLine label="Variants">
          <Variants experiment={experiment} />
        </CardLine>
        <Actions {...props} />
      </Stack>
    </Paper>
  );
}

function ExperimentCards({ experiments, ...props }: ExperimentsTableProps) {
  return (
    <Stack
      component="ul"
      gap="xs"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={`Experiments in ${props.environment.name}`}
      aria-busy={experiments === null || undefined}
    >
      {experiments === null
        ? Array.from({ length: SKELETONS }, (_, index) => (
            <Paper component="li" key={index} withBorder radius="md" p="sm" data-testid="experiment-skeleton">
              <Stack gap={8}>
                <Skeleton height={14} width="60%" />
                <Skeleton height={14} width="40%" />
                <Skeleton height={14} width="85%" />
              </Stack>
            </Paper>
          ))
        : experiments.map((experiment) => (
            <ExperimentCard
              key={experiment.id}
              {...props}
              experiment={experiment}
              archiving={props.archivingId === experiment.id}
            />
          ))}
    </Stack>
  );
}

/**
 * docs/product.md §2 "Experiments": a row per experiment with its enabled switch, name, feature, goal,
 * control and alternate variants, state, and Stats (once started), Edit and Archive. Below the `sm`
 * breakpoint, a card per experiment instead, so that nothing scrolls sideways.
 */
export function ExperimentsTable(props: ExperimentsTableProps) {
  const narrow = useNarrowScreen();
  if (narrow) return <ExperimentCards {...props} />;
  const { experiments, archivingId } = props;
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table
        layout="fixed"
        verticalSpacing="sm"
        highlightOnHover
        aria-label={`Experiments in ${props.environment.name}`}
        aria-busy={experiments === null || undefined}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={72}>Enabled</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th w="15%">Feature</Table.Th>
            <Table.Th w="15%">Goal</Table.Th>
            <Table.Th w="14%">Control vs alternate</Table.Th>
            <Table.Th w={120}>State</Table.Th>
            <Table.Th w={300}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {experiments === null ? (
            <SkeletonRows />
          ) : (
            experiments.map((experiment) => (
              <ExperimentRow
                key={experiment.id}
                {...props}
                experiment={experiment}
                archiving={archivingId === experiment.id}
              />
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
