import { Badge, Card, Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { Experiment, ExperimentStatistics } from '@vexil/core';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { countText, rateText, valueText } from './experiment-format';

type Arm = { key: string; role: 'Control' | 'Alternate' };

type VariantTableProps = { statistics: ExperimentStatistics; experiment: Experiment };

/** The variant's key, its role, and whether it is winning. */
function ArmName({ arm, winner }: { arm: Arm; winner: boolean }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Code style={{ overflowWrap: 'anywhere' }}>{arm.key}</Code>
      <Text size="xs" c="dimmed">
        {arm.role}
      </Text>
      {winner ? (
        <Badge color="teal" variant="light" size="sm" miw="max-content" style={{ flexShrink: 0 }}>
          Winner
        </Badge>
      ) : null}
    </Group>
  );
}

/** One figure of a variant's card: its name, what it counts, and the value. */
function CardFigure({
  label,
  hint,
  value,
  strong = false,
}: {
  label: string;
  hint?: string;
  value: string;
  strong?: boolean;
}) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {label}
        {hint ? ` (${hint})` : ''}
      </Text>
      <Text component="dd" m={0} ff="monospace" fw={strong ? 600 : 400}>
        {value}
      </Text>
    </div>
  );
}

/**
 * On a phone, a card per variant with the same figures as the table's row, two to a line: a table of
 * four or five columns would hide Conversion rate and Value off the side of the screen.
 */
function VariantCards({
  arms,
  statistics,
  withValues,
}: {
  arms: Arm[];
  statistics: ExperimentStatistics;
  withValues: boolean;
}) {
  return (
    <Stack
      component="ul"
      gap="xs"
      m={0}
      px="lg"
      pb="lg"
      style={{ listStyle: 'none' }}
      aria-label="Results by variant"
    >
      {arms.map((arm) => {
        const result = statistics.variantResults[arm.key];
        return (
          <Paper component="li" key={arm.key} withBorder radius="md" p="sm" aria-label={arm.key}>
            <Stack gap="xs">
              <ArmName arm={arm} winner={statistics.winningVariation === arm.key} />
              <SimpleGrid component="dl" cols={2} spacing="sm" verticalSpacing="xs" m={0}>
                <CardFigure
                  label="Impressions"
                  hint="exposed users"
                  value={countText(result?.impressions ?? 0)}
                />
                <CardFigure label="Goals" hint="converted users" value={countText(result?.goals ?? 0)} />
                <CardFigure label="Conversion rate" value={rateText(result?.conversionRate ?? 0)} strong />
                {withValues ? (
                  <CardFigure
                    label="Value"
                    value={result?.valueSum === undefined ? '—' : valueText(result.valueSum)}
                  />
                ) : null}
              </SimpleGrid>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

/**
 * The experiment's two variants with their exposed and converted users, conversion rate and, for goals
 * that carry a value, its sum: a table, or cards on a phone.
 */
export function VariantTable({ statistics, experiment }: VariantTableProps) {
  const narrow = useNarrowScreen();
  const arms: Arm[] = [
    { key: experiment.control, role: 'Control' },
    { key: experiment.variation, role: 'Alternate' },
  ];
  // Goals that carry a value (revenue-style) add a Value column; goals without one sum to 0.
  const withValues = arms.some((arm) => (statistics.variantResults[arm.key]?.valueSum ?? 0) !== 0);
  return (
    <Card withBorder radius="md" padding={0}>
      <Title order={2} fz="lg" p="lg" pb="sm">
        Variants
      </Title>
      {narrow ? (
        <VariantCards arms={arms} statistics={statistics} withValues={withValues} />
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" horizontalSpacing="lg" aria-label="Results by variant">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Variant</Table.Th>
                <Table.Th ta="right">
                  Impressions
                  <Text size="xs" c="dimmed" fw={400}>
                    exposed users
                  </Text>
                </Table.Th>
                <Table.Th ta="right">
                  Goals
                  <Text size="xs" c="dimmed" fw={400}>
                    converted users
                  </Text>
                </Table.Th>
                <Table.Th ta="right">Conversion rate</Table.Th>
                {withValues ? <Table.Th ta="right">Value</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {arms.map((arm) => {
                const result = statistics.variantResults[arm.key];
                return (
                  <Table.Tr key={arm.key}>
                    <Table.Td>
                      <ArmName arm={arm} winner={statistics.winningVariation === arm.key} />
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {countText(result?.impressions ?? 0)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {countText(result?.goals ?? 0)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" fw={600}>
                      {rateText(result?.conversionRate ?? 0)}
                    </Table.Td>
                    {withValues ? (
                      <Table.Td ta="right" ff="monospace">
                        {result?.valueSum === undefined ? '—' : valueText(result.valueSum)}
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
