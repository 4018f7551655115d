import { LineChart } from '@mantine/charts';
import { Alert, Card, Center, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconChartLine } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { VariantDailyImpressions } from '@vexil/core';
import { useDailyImpressions } from '../../../entities/impressions/api/get-daily-impressions';

export const NO_IMPRESSIONS_MESSAGE = 'No impressions in the last 30 days.';

const SERIES_COLORS = [
  'blue.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'red.6',
  'cyan.6',
  'lime.7',
  'pink.6',
  'indigo.6',
  'yellow.7',
];

/**
 * Rows for the chart, one per day. Series are keyed by position (`v0`, `v1`...) and labelled with the
 * variant's name, so no variant name can clash with the day column or another variant.
 */
export function chartRows(impressions: VariantDailyImpressions) {
  const data = impressions.labels.map((label, day) => {
    const row: Record<string, string | number> = { day: dayjs(label).format('D MMM') };
    impressions.datasets.forEach((dataset, index) => {
      row[`v${index}`] = dataset.data[day] ?? 0;
    });
    return row;
  });
  const series = impressions.datasets.map((dataset, index) => ({
    name: `v${index}`,
    label: dataset.label,
    color: SERIES_COLORS[index % SERIES_COLORS.length]!,
  }));
  return { data, series };
}

function hasImpressions(impressions: VariantDailyImpressions): boolean {
  return impressions.datasets.some((dataset) => dataset.data.some((value) => value > 0));
}

/** docs/product.md §2 Overview: impressions per variant and day in one environment over the last 30 days. */
export function ImpressionsChart({
  controlId,
  environmentName,
}: {
  controlId: string;
  environmentName: string;
}) {
  const impressions = useDailyImpressions(controlId);
  const heading = `Daily impressions in ${environmentName}`;

  let body;
  if (impressions.isPending) {
    body = <Skeleton height={240} aria-label="Loading impressions" />;
  } else if (impressions.isError) {
    body = (
      <Alert color="red" variant="light" role="alert">
        We could not load the impressions.
      </Alert>
    );
  } else if (!hasImpressions(impressions.data)) {
    body = (
      <Center mih={200}>
        <Stack align="center" gap={6}>
          <IconChartLine size={32} aria-hidden="true" style={{ color: 'var(--mantine-color-dimmed)' }} />
          <Text c="dimmed">{NO_IMPRESSIONS_MESSAGE}</Text>
        </Stack>
      </Center>
    );
  } else {
    const { data, series } = chartRows(impressions.data);
    body = (
      <LineChart
        h={260}
        data={data}
        dataKey="day"
        series={series}
        curveType="monotone"
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
        tickLine="x"
        withDots={false}
        valueFormatter={(value) => value.toLocaleString()}
        aria-label={`${heading}, last 30 days, by variant`}
      />
    );
  }

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg">
            {heading}
          </Title>
          <Text size="sm" c="dimmed">
            Last 30 days, by variant
          </Text>
        </div>
        {body}
      </Stack>
    </Card>
  );
}
