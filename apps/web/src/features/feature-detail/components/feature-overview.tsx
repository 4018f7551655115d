import { Anchor, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { ReactNode } from 'react';
import type { Feature, FeatureControl, ProjectSummary } from '@vexil/core';
import { trafficLabel } from '../../../lib/control-labels';
import { featureDetailPath } from '../../../lib/paths';
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
 * which each environment's permission governs, what it serves, traffic, impressions today) and the daily impressions chart of the current environment.
 */
export function FeatureOverview({ feature, project, environment, toggle }: FeatureOverviewProps) {
  const control = feature.controls[environment.key];
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding={0}>
        <Title order={2} fz="lg" p="lg" pb="sm">
          Environments
        </Title>
        <Table.ScrollContainer minWidth={760}>
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
              {project.environments.map((e) => {
                const c = feature.controls[e.key];
                const current = e.id === environment.id;
                return (
                  <Table.Tr key={e.id} bg={current ? 'var(--mantine-primary-color-light)' : undefined}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={featureDetailPath(project.key, e.key, feature.key, 'overview')}
                        c="inherit"
                        fw={current ? 600 : 500}
                        aria-current={current ? 'page' : undefined}
                        style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}
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
                        {e.name}
                      </Anchor>
                    </Table.Td>
                    {c ? (
                      <>
                        <Table.Td>
                          <Group gap="sm" wrap="nowrap">
                            {toggle(c, e)}
                            {/* The cell grows to fit its badge on narrow screens rather than squash it. */}
                            <Badge
                              variant="light"
                              color={c.enabled ? 'teal' : 'gray'}
                              style={{ flexShrink: 0 }}
                            >
                              {c.enabled ? 'On' : 'Off'}
                            </Badge>
                          </Group>
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
                          Not set up in this environment.
                        </Text>
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
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
