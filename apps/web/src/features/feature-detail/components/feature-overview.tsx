import { Anchor, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { ReactNode } from 'react';
import type { Feature, FeatureControl, ProjectSummary } from '@vexil/core';
import { TruncatedText } from '../../../components/truncated-text';
import { trafficLabel } from '../../../lib/control-labels';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { featureDetailPath } from '../../../lib/paths';
import { FeatureExperiments } from './feature-experiments';
import { ImpressionsChart } from './impressions-chart';

type EnvironmentSummary = ProjectSummary['environments'][number];

export type FeatureOverviewProps = {
  feature: Feature;
  project: ProjectSummary;
  environment: EnvironmentSummary;
  /** The on/off switch of the feature's control in an environment. */
  toggle: (control: FeatureControl, environment: EnvironmentSummary) => ReactNode;
};

/**
 * docs/product.md §2 Overview: the feature in every environment of the project (state with its on/off switch,
 * which each environment's permission governs, what it serves, traffic, impressions today), the experiments running
 * on it in the current environment (flag experiments) and the daily impressions chart of the current environment.
 */
export function FeatureOverview({ feature, project, environment, toggle }: FeatureOverviewProps) {
  const control = feature.controls[environment.key];
  const narrow = useNarrowScreen();
  const rows = project.environments.map((e) => ({
    environment: e,
    control: feature.controls[e.key],
    current: e.id === environment.id,
  }));
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding={0}>
        <Title order={2} fz="lg" p="lg" pb="sm">
          Environments
        </Title>
        {narrow ? (
          <EnvironmentCards feature={feature} project={project} rows={rows} toggle={toggle} />
        ) : (
          <EnvironmentTable feature={feature} project={project} rows={rows} toggle={toggle} />
        )}
      </Card>
      <FeatureExperiments featureId={feature.id} projectKey={project.key} environment={environment} />
      {control ? (
        <ImpressionsChart
          controlId={control.id}
          environmentName={environment.name}
          variants={feature.variants}
        />
      ) : null}
    </Stack>
  );
}

type EnvironmentRow = {
  environment: EnvironmentSummary;
  control: FeatureControl | undefined;
  current: boolean;
};

type EnvironmentsProps = Pick<FeatureOverviewProps, 'feature' | 'project' | 'toggle'> & {
  rows: EnvironmentRow[];
};

/** The environment's name, with its colour, linking to the feature's Overview there. */
function EnvironmentLink({
  feature,
  project,
  row,
}: Pick<FeatureOverviewProps, 'feature' | 'project'> & { row: EnvironmentRow }) {
  const { environment: e, current } = row;
  return (
    <Anchor
      component={Link}
      to={featureDetailPath(project.key, e.key, feature.key, 'overview')}
      c="inherit"
      fw={current ? 600 : 500}
      aria-current={current ? 'page' : undefined}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}
    >
      <span
        aria-hidden="true"
        style={{
          width: 10,
          height: 10,
          borderRadius: '50%',
          background: e.color,
          display: 'inline-block',
          flexShrink: 0,
        }}
      />
      <TruncatedText text={e.name} inherit span />
    </Anchor>
  );
}

/** The switch and the On/Off badge beside it. */
function StateCell({
  control,
  environment,
  toggle,
}: {
  control: FeatureControl;
  environment: EnvironmentSummary;
  toggle: FeatureOverviewProps['toggle'];
}) {
  return (
    <Group gap="sm" wrap="nowrap">
      {toggle(control, environment)}
      {/* The badge keeps its width rather than be squashed on narrow screens. */}
      <Badge variant="light" color={control.enabled ? 'teal' : 'gray'} style={{ flexShrink: 0 }}>
        {control.enabled ? 'On' : 'Off'}
      </Badge>
    </Group>
  );
}

const NOT_SET_UP = 'Not set up in this environment.';

function EnvironmentTable({ feature, project, rows, toggle }: EnvironmentsProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" horizontalSpacing="lg" aria-label="The feature in each environment">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Environment</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Serves</Table.Th>
            <Table.Th>Traffic</Table.Th>
            <Table.Th ta="right">Impressions today</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const { environment: e, control: c, current } = row;
            return (
              <Table.Tr key={e.id} bg={current ? 'var(--mantine-primary-color-light)' : undefined}>
                <Table.Td maw={240}>
                  <EnvironmentLink feature={feature} project={project} row={row} />
                </Table.Td>
                {c ? (
                  <>
                    <Table.Td>
                      <StateCell control={c} environment={e} toggle={toggle} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{c.rulesDescription}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={c.trafficStatus === 'active' ? undefined : 'dimmed'}>
                        {trafficLabel(c)}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {c.statistics.impressions.today.toLocaleString()}
                    </Table.Td>
                  </>
                ) : (
                  <Table.Td colSpan={4}>
                    <Text size="sm" c="dimmed">
                      {NOT_SET_UP}
                    </Text>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Below the `sm` breakpoint (a phone) each environment is a card, so that nothing scrolls sideways:
 * the name and the switch on one line, then what it serves, its traffic and today's impressions.
 */
function EnvironmentCards({ feature, project, rows, toggle }: EnvironmentsProps) {
  return (
    <Stack gap={0} role="list" aria-label="The feature in each environment">
      {rows.map((row) => {
        const { environment: e, control: c, current } = row;
        return (
          <Stack
            key={e.id}
            role="listitem"
            gap={6}
            px="md"
            py="sm"
            bg={current ? 'var(--mantine-primary-color-light)' : undefined}
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <EnvironmentLink feature={feature} project={project} row={row} />
              {c ? <StateCell control={c} environment={e} toggle={toggle} /> : null}
            </Group>
            {c ? (
              <>
                <Text size="sm">{c.rulesDescription}</Text>
                <Group justify="space-between" gap="sm">
                  <Text size="xs" c={c.trafficStatus === 'active' ? undefined : 'dimmed'}>
                    {trafficLabel(c)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Impressions today:{' '}
                    <Text span inherit ff="monospace" c="var(--mantine-color-text)">
                      {c.statistics.impressions.today.toLocaleString()}
                    </Text>
                  </Text>
                </Group>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {NOT_SET_UP}
              </Text>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}
