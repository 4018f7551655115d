import { lazy, Suspense, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconInfoCircle,
  IconRefresh,
  IconTrophy,
} from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { Experiment, ExperimentStatistics, Interval } from '@vexil/core';
import { isApiError } from '../../../lib/api-client';
import { experimentsPath } from '../../../lib/paths';
import { NotFound } from '../../../components/not-found';
import { LoadError } from '../../../components/load-error';
import { useExperiment } from '../../../entities/experiments/api/get-experiment';
import { useExperimentStatistics } from '../../../entities/experiments/api/get-experiment-statistics';
import {
  confidenceText,
  countText,
  experimentState,
  liftText,
  pointsText,
  pvalueText,
  STATE_COLORS,
  STATE_LABELS,
  WINNING_CONFIDENCE,
  zscoreText,
} from './experiment-format';
import { Facts } from './experiment-facts';
import { VariantTable } from './experiment-variant-table';

const ConversionChart = lazy(() =>
  import('./conversion-chart').then((module) => ({ default: module.ConversionChart })),
);

/** While an experiment runs, its statistics are asked for again this often. */
export const STATS_REFRESH_MS = 30_000;

export const NO_WINNER_MESSAGE = 'No winner yet';
export const NOT_STARTED_MESSAGE =
  'This experiment has not started yet: switch it on in the Experiments list to start counting.';

/** The chart's colours: the control grey like "off", the alternate blue. */
const CONTROL_COLOR = 'gray.6';
const ALTERNATE_COLOR = 'blue.6';

export type ExperimentStatsPageProps = {
  project: { key: string; name: string };
  environment: { key: string; name: string };
  experimentId: string;
};

/** "{variant} is winning with 97.3 % confidence". */
export function winnerText(
  statistics: Pick<ExperimentStatistics, 'winningVariation' | 'confidence'>,
): string | null {
  if (!statistics.winningVariation) return null;
  return `${statistics.winningVariation} is winning with ${confidenceText(statistics.confidence)} confidence`;
}

/** Why there is no winner: the server's reasons, else a confidence below the threshold. */
export function noWinnerReasons(
  statistics: Pick<ExperimentStatistics, 'invalidReasons' | 'confidence'>,
): string[] {
  if (statistics.invalidReasons.length > 0) return statistics.invalidReasons;
  return [
    `Confidence ${confidenceText(statistics.confidence)} is below ${Math.round(WINNING_CONFIDENCE * 100)}\u00a0%.`,
  ];
}

/** "95 % interval: +0.20 pp to +5.80 pp". */
function intervalText(interval: Interval, format: (value: number) => string): string {
  return `${Math.round(interval.level * 100)}\u00a0% interval: ${format(interval.lower)} to ${format(interval.upper)}`;
}

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700} ff="monospace" mt={4}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed" mt={4}>
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}

/** The headline: the winner, or why there is none yet. */
function Verdict({ statistics, experiment }: { statistics: ExperimentStatistics; experiment: Experiment }) {
  const winner = winnerText(statistics);
  const running = experimentState(experiment) === 'running';
  const modeNote =
    statistics.mode === 'sequential'
      ? 'Sequential mode: the confidence stays valid however often you look.'
      : running
        ? 'Fixed mode: read the result once, at the end you planned. Stopping at the first winner finds winners that are not real.'
        : 'Fixed mode: the two-proportion z-test.';
  return (
    <Card withBorder radius="md" padding="lg" aria-label="Result">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <IconTrophy
          size={32}
          aria-hidden="true"
          style={{
            flexShrink: 0,
            color: winner ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-dimmed)',
          }}
        />
        <Stack gap={6} miw={0}>
          <Title order={2} fz="xl" style={{ overflowWrap: 'anywhere' }}>
            {winner ?? NO_WINNER_MESSAGE}
          </Title>
          {winner ? null : (
            <List size="sm" spacing={4}>
              {noWinnerReasons(statistics).map((reason) => (
                <List.Item key={reason}>{reason}</List.Item>
              ))}
            </List>
          )}
          <Text size="xs" c="dimmed">
            {modeNote}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

function Statistics({
  statistics,
  experiment,
}: {
  statistics: ExperimentStatistics;
  experiment: Experiment;
}) {
  const { difference, relativeLift } = statistics;
  return (
    <Stack gap="lg">
      <Verdict statistics={statistics} experiment={experiment} />
      {statistics.sampleRatio.flagged ? (
        <Alert
          color="orange"
          variant="light"
          role="alert"
          icon={<IconAlertTriangle size={18} aria-hidden="true" />}
          title="Sample ratio mismatch"
        >
          {statistics.sampleRatio.message ??
            'Users are not being split between the variants as configured: do not trust these results until the cause is found.'}
        </Alert>
      ) : null}
      {statistics.usersInBothVariants > 0 ? (
        <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} aria-hidden="true" />}>
          {countText(statistics.usersInBothVariants)}{' '}
          {statistics.usersInBothVariants === 1 ? 'user was' : 'users were'} exposed to both variants (a rule
          changed while the experiment ran); each counts once, in the variant they saw first.
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
        <Figure label="Confidence" value={confidenceText(statistics.confidence)} />
        <Figure label="p-value" value={pvalueText(statistics.pvalue)} />
        <Figure label="z-score" value={zscoreText(statistics.zscore)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Figure
          label="Difference"
          value={difference ? pointsText(difference.estimate) : '—'}
          hint={
            difference
              ? `Alternate minus control conversion rate, in percentage points. ${intervalText(difference, pointsText)}`
              : 'Needs exposed users in both variants.'
          }
        />
        <Figure
          label="Relative lift"
          value={relativeLift ? liftText(relativeLift.estimate) : '—'}
          hint={
            relativeLift
              ? `How much better (or worse) the alternate converts than the control. ${intervalText(relativeLift, liftText)}`
              : 'Needs users who reached the goal in both variants.'
          }
        />
      </SimpleGrid>
      <VariantTable statistics={statistics} experiment={experiment} />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <div>
            <Title order={2} fz="lg">
              Conversion rate over time
            </Title>
            <Text size="sm" c="dimmed">
              Cumulative, at the end of each day (UTC)
            </Text>
          </div>
          <Suspense fallback={<Skeleton height={260} aria-label="Loading the chart" />}>
            <ConversionChart
              daily={statistics.daily}
              variants={[
                { key: experiment.control, label: `${experiment.control} (control)`, color: CONTROL_COLOR },
                {
                  key: experiment.variation,
                  label: `${experiment.variation} (alternate)`,
                  color: ALTERNATE_COLOR,
                },
              ]}
            />
          </Suspense>
        </Stack>
      </Card>
    </Stack>
  );
}

function StatsSkeleton() {
  return (
    <Stack gap="lg" aria-busy="true" aria-label="Loading the statistics">
      <Skeleton height={96} />
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
        <Skeleton height={72} />
        <Skeleton height={72} />
        <Skeleton height={72} />
      </SimpleGrid>
      <Skeleton height={160} />
      <Skeleton height={300} />
    </Stack>
  );
}

/**
 * docs/product.md §2 "Experiments", experiments/{id}/stats: the experiment (name, feature, goal,
 * variants, running time), the winner or why there is none yet, confidence, p-value and z-score,
 * the difference and relative lift with their intervals, the sample-ratio warning, users exposed to
 * both variants, a table per variant (conversion to 2 decimals, docs/product.md §9) and the
 * cumulative conversion rate per day (docs/adr/0015-experiment-statistics.md). Refresh asks again;
 * while the experiment runs the figures refresh every 30 seconds by themselves.
 */
export function ExperimentStatsPage({ project, environment, experimentId }: ExperimentStatsPageProps) {
  const experiment = useExperiment(experimentId);
  const running = experiment.data ? experimentState(experiment.data) === 'running' : false;
  const started = Boolean(experiment.data?.startDate);
  const statistics = useExperimentStatistics(experimentId, {
    enabled: started,
    refetchInterval: running ? STATS_REFRESH_MS : false,
  });

  const gone = isApiError(experiment.error) && experiment.error.status === 404;
  if (gone) return <NotFound />;
  const data = experiment.data;
  // An experiment of another environment is not this address's.
  if (data && (data.projectKey !== project.key || data.environmentKey !== environment.key)) {
    return <NotFound />;
  }

  const refresh = () => {
    void experiment.refetch();
    if (started) void statistics.refetch();
  };

  let body: ReactNode;
  if (experiment.isError && !data) {
    body = (
      <LoadError
        title="We could not load the experiment."
        error={experiment.error}
        retrying={experiment.isFetching}
        onRetry={() => void experiment.refetch()}
      />
    );
  } else if (!data) {
    body = <StatsSkeleton />;
  } else if (!started) {
    body = (
      <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} aria-hidden="true" />}>
        {NOT_STARTED_MESSAGE}
      </Alert>
    );
  } else if (statistics.isError && !statistics.data) {
    body = (
      <LoadError
        title="We could not load the statistics."
        error={statistics.error}
        retrying={statistics.isFetching}
        onRetry={() => void statistics.refetch()}
      />
    );
  } else if (!statistics.data) {
    body = <StatsSkeleton />;
  } else {
    body = <Statistics statistics={statistics.data} experiment={data} />;
  }

  const state = data ? experimentState(data) : null;
  return (
    <Stack gap="lg">
      <Anchor
        component={Link}
        to={experimentsPath(project.key, environment.key)}
        size="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, alignSelf: 'flex-start' }}
      >
        <IconArrowLeft size={14} aria-hidden="true" />
        Experiments
      </Anchor>
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6} miw={0} style={{ flex: '1 1 320px' }}>
          {data ? (
            <Group gap="sm" wrap="wrap">
              <Title order={1} style={{ overflowWrap: 'anywhere' }}>
                {data.name}
              </Title>
              {state ? (
                <Badge variant="light" color={STATE_COLORS[state]}>
                  {STATE_LABELS[state]}
                </Badge>
              ) : null}
            </Group>
          ) : (
            <Skeleton height={36} width="50%" />
          )}
          {data ? <Facts experiment={data} project={project} environment={environment} /> : null}
        </Stack>
        <Group gap="sm" wrap="nowrap">
          {statistics.dataUpdatedAt ? (
            <Text size="xs" c="dimmed">
              Updated {dayjs(statistics.dataUpdatedAt).format('h:mm:ssa')}
              {running ? ', every 30 s' : ''}
            </Text>
          ) : null}
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden="true" />}
            loading={experiment.isFetching || statistics.isFetching}
            onClick={refresh}
            style={{ flexShrink: 0 }}
          >
            Refresh
          </Button>
        </Group>
      </Group>
      {body}
    </Stack>
  );
}
