import { Anchor, Code, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Experiment } from '@vexil/core';
import { formatDate } from '../../../lib/format';
import { featureDetailPath } from '../../../lib/paths';
import { runningTimeText } from './experiment-format';

type FactsProps = {
  experiment: Experiment;
  project: { key: string };
  environment: { key: string };
};

/** Feature, goal, variants and running time, under the name. */
export function Facts({ experiment, project, environment }: FactsProps) {
  const runningTime = runningTimeText(experiment);
  return (
    <Group gap="lg" wrap="wrap" style={{ rowGap: 6 }}>
      <Text size="sm">
        <Text span c="dimmed" inherit>
          Feature{' '}
        </Text>
        {experiment.feature ? (
          <Anchor
            component={Link}
            to={featureDetailPath(project.key, environment.key, experiment.feature.key)}
            inherit
            style={{ overflowWrap: 'anywhere' }}
          >
            {experiment.feature.name}
          </Anchor>
        ) : (
          <Code>{experiment.featureKey}</Code>
        )}
      </Text>
      <Text size="sm">
        <Text span c="dimmed" inherit>
          Goal{' '}
        </Text>
        <Code>{experiment.goalKey}</Code>
      </Text>
      <Text size="sm">
        <Text span c="dimmed" inherit>
          Variants{' '}
        </Text>
        <Code>{experiment.control}</Code> vs <Code>{experiment.variation}</Code>
      </Text>
      {runningTime ? (
        <Text size="sm" title={`Started ${formatDate(experiment.startDate)}`}>
          {runningTime}
        </Text>
      ) : null}
    </Group>
  );
}
