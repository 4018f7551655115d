import { Anchor, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useFlag } from '../../../lib/flags';
import { experimentStatsPath } from '../../../lib/paths';
import { useExperiments } from '../../../entities/experiments/api/get-experiments';

export type FeatureExperimentsProps = {
  featureId: string;
  projectKey: string;
  environment: { key: string; name: string };
};

/**
 * The Overview's Experiments section: the experiments running on the feature in this environment
 * (started, not finished), each linking to its statistics. Nothing shows without flag experiments,
 * when none runs, or when the list cannot be loaded (the Experiments page says why).
 */
export function FeatureExperiments({ featureId, projectKey, environment }: FeatureExperimentsProps) {
  const on = useFlag('experiments');
  const list = useExperiments({ projectKey, environmentKey: environment.key }, on);
  const running = (list.data ?? []).filter(
    (experiment) => experiment.featureId === featureId && experiment.startDate && !experiment.endDate,
  );
  if (!on || running.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconFlask size={20} aria-hidden="true" style={{ flexShrink: 0 }} />
          <Title order={2} fz="lg">
            Experiments
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          Running on this feature in {environment.name}
        </Text>
        <Stack
          component="ul"
          gap={6}
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label="Running experiments"
        >
          {running.map((experiment) => (
            <Group component="li" key={experiment.id} gap="sm" wrap="wrap">
              <Anchor
                component={Link}
                to={experimentStatsPath(projectKey, environment.key, experiment.id)}
                fw={500}
                style={{ overflowWrap: 'anywhere' }}
              >
                {experiment.name}
              </Anchor>
              <Text size="xs" c="dimmed">
                Goal <Code>{experiment.goalKey}</Code> · <Code>{experiment.control}</Code> vs{' '}
                <Code>{experiment.variation}</Code>
              </Text>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
