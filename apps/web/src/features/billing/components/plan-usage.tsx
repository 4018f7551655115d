import { Alert, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import {
  formatCount,
  formatLimit,
  usageLevel,
  usagePercent,
  type BooleanLimitKey,
  type Limits,
  type NumericLimitKey,
  type Usage,
  type UsageLevel,
} from '@vexil/core';
import { USAGE_OF_LIMIT } from '../../../entities/billing/hooks/use-plan-limit';

/** The numeric limits in the order the tables show them, with their names. */
const NUMERIC_ROWS: readonly { key: NumericLimitKey; label: string; impressions?: true }[] = [
  { key: 'maxOrganisationUsers', label: 'Seats' },
  { key: 'maxProjects', label: 'Projects' },
  { key: 'maxEnvironments', label: 'Environments' },
  { key: 'maxFeatures', label: 'Features' },
  // Monthly (the current calendar month in UTC), shown only with flag impressions-limits.
  { key: 'maxApplicationUniqueUsers', label: 'Application users', impressions: true },
  { key: 'maxImpressions', label: 'Impressions', impressions: true },
];

const BOOLEAN_ROWS: readonly { key: BooleanLimitKey; label: string }[] = [
  { key: 'auditLog', label: 'Audit log' },
  { key: 'variantTesting', label: 'Experiments' },
];

/** docs/product.md §9: the bar turns to warning at 90 % and to danger at 100 %. */
export const LEVEL_COLORS: Readonly<Record<UsageLevel, string>> = {
  ok: 'blue',
  warning: 'yellow',
  danger: 'red',
};

/** Application users and impressions show only with flag impressions-limits (docs/product.md §9). */
function rows(withImpressions: boolean) {
  return NUMERIC_ROWS.filter((row) => withImpressions || !row.impressions);
}

/**
 * docs/product.md §2 "Billing" Current Plan, its limits table: each limit of the plan, "Unlimited" when none
 * is set and numbers with thousands separators; the audit log and experiments, included or not.
 */
export function LimitsTable({ limits, withImpressions }: { limits: Limits; withImpressions: boolean }) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="plan-limits-title">
      <Stack gap="sm">
        <Title order={3} id="plan-limits-title">
          Plan limits
        </Title>
        <Table aria-labelledby="plan-limits-title" verticalSpacing={6}>
          <Table.Tbody>
            {rows(withImpressions).map((row) => (
              <Table.Tr key={row.key}>
                <Table.Th scope="row" fw={500}>
                  {row.impressions ? `${row.label} a month` : row.label}
                </Table.Th>
                <Table.Td ta="right">{formatLimit(limits[row.key])}</Table.Td>
              </Table.Tr>
            ))}
            {BOOLEAN_ROWS.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Th scope="row" fw={500}>
                  {row.label}
                </Table.Th>
                <Table.Td ta="right">{limits[row.key] ? 'Included' : 'Not included'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

const LEVEL_NOTES: Readonly<Record<UsageLevel, string | null>> = {
  ok: null,
  warning: 'Nearly at the limit',
  danger: 'Limit reached',
};

function UsageRow({ label, used, limit }: { label: string; used: number; limit: number | null }) {
  const level = usageLevel(used, limit);
  const note = LEVEL_NOTES[level];
  return (
    <Table.Tr data-level={limit === null ? undefined : level}>
      <Table.Th scope="row" fw={500} w="35%">
        {label}
      </Table.Th>
      <Table.Td>
        <Stack gap={4}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm">
              {formatCount(used)}
              {limit === null ? '' : ` of ${formatCount(limit)}`}
            </Text>
            <Text
              size="xs"
              c={level === 'ok' ? 'dimmed' : LEVEL_COLORS[level]}
              fw={level === 'ok' ? 400 : 600}
            >
              {limit === null ? 'Unlimited' : note}
            </Text>
          </Group>
          {limit === null ? null : (
            <Progress
              value={usagePercent(used, limit)}
              color={LEVEL_COLORS[level]}
              size="sm"
              aria-label={`${label} used`}
            />
          )}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * docs/product.md §2 "Billing" Current Plan, its usage table: what the organisation uses of each limit, with a
 * progress bar that turns to warning at 90 % and to danger at 100 % (docs/product.md §9).
 */
export function UsageTable({
  usage,
  limits,
  withImpressions,
}: {
  usage: Usage;
  limits: Limits | null;
  withImpressions: boolean;
}) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="plan-usage-title">
      <Stack gap="sm">
        <Title order={3} id="plan-usage-title">
          Usage
        </Title>
        {withImpressions
          ? usage.warnings.map((warning) => (
              <Alert
                key={warning.key}
                color="yellow"
                variant="light"
                icon={<IconAlertTriangle size={18} aria-hidden="true" />}
              >
                {warning.message}
              </Alert>
            ))
          : null}
        <Table aria-labelledby="plan-usage-title" verticalSpacing={8}>
          <Table.Tbody>
            {rows(withImpressions).map((row) => (
              <UsageRow
                key={row.key}
                label={row.impressions ? `${row.label} this month` : row.label}
                used={usage[USAGE_OF_LIMIT[row.key]]}
                limit={limits?.[row.key] ?? null}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
