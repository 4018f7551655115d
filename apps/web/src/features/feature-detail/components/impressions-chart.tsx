import { LineChart } from '@mantine/charts';
import { Alert, Card, Center, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconChartLine } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { VariantDailyImpressions } from '@vexil/core';
import { useDailyImpressions } from '../../../entities/impressions/api/get-daily-impressions';

export const NO_IMPRESSIONS_MESSAGE = 'No impressions in the last 30 days.';

/**
 * The colours of the variants (docs/product.md §2 Overview): "on" green and "off" grey, whatever their
 * names; every other variant one of its own, none of them green or grey.
 */
const ON_COLOR = 'green.6';
const OFF_COLOR = 'gray.5';
const SERIES_COLORS = [
  'blue.6',
  'orange.6',
  'grape.6',
  'red.6',
  'cyan.6',
  'pink.6',
  'indigo.6',
  'yellow.7',
  'violet.6',
];

/** The widest day label ("30 Sep") with room around it, in pixels: the x axis fits this many per tick. */
const TICK_WIDTH = 56;
/** The chart's width before it is measured: a phone's. */
const FALLBACK_WIDTH = 320;
/** What the y axis takes of the chart's width. */
const Y_AXIS_WIDTH = 60;

/**
 * How many days apart the x axis' ticks are on a chart `width` pixels wide, for `days` days: every day
 * when they fit, else every 2, 3... days, always the same spacing (the axis would otherwise drop
 * whichever labels collide, leaving uneven gaps).
 */
export function tickStep(width: number, days: number): number {
  const fitting = Math.max(1, Math.floor(width / TICK_WIDTH));
  return Math.max(1, Math.ceil(days / fitting));
}

type ChartVariant = { key: string; name: string };

/** The variant a dataset counts: the server sends them in the feature's order, labelled with their names. */
function variantOf(
  variants: readonly ChartVariant[],
  label: string,
  index: number,
): ChartVariant | undefined {
  const atIndex = variants[index];
  return atIndex?.name === label ? atIndex : variants.find((variant) => variant.name === label);
}

/**
 * Rows for the chart, one per day. Series are keyed by position (`v0`, `v1`...) and labelled with the
 * variant's name, so no variant name can clash with the day column or another variant.
 */
export function chartRows(impressions: VariantDailyImpressions, variants: readonly ChartVariant[] = []) {
  const data = impressions.labels.map((label, day) => {
    const row: Record<string, string | number> = { day: dayjs(label).format('D MMM') };
    impressions.datasets.forEach((dataset, index) => {
      row[`v${index}`] = dataset.data[day] ?? 0;
    });
    return row;
  });
  let others = 0;
  const series = impressions.datasets.map((dataset, index) => {
    const key = variantOf(variants, dataset.label, index)?.key;
    const color =
      key === 'on' ? ON_COLOR : key === 'off' ? OFF_COLOR : SERIES_COLORS[others++ % SERIES_COLORS.length]!;
    return { name: `v${index}`, label: dataset.label, color };
  });
  return { data, series };
}

function hasImpressions(impressions: VariantDailyImpressions): boolean {
  return impressions.datasets.some((dataset) => dataset.data.some((value) => value > 0));
}

/** docs/product.md §2 Overview: impressions per variant and day in one environment over the last 30 days. */
export function ImpressionsChart({
  controlId,
  environmentName,
  variants,
}: {
  controlId: string;
  environmentName: string;
  /** The feature's variants, whose keys choose the colours. */
  variants: readonly ChartVariant[];
}) {
  const impressions = useDailyImpressions(controlId);
  const { ref, width } = useElementSize();
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
    const { data, series } = chartRows(impressions.data, variants);
    // Straight segments between days: a smoothed curve overshoots, below zero after a peak.
    body = (
      <LineChart
        h={260}
        data={data}
        dataKey="day"
        series={series}
        curveType="linear"
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
        tickLine="x"
        withDots={false}
        xAxisProps={{ interval: tickStep((width || FALLBACK_WIDTH) - Y_AXIS_WIDTH, data.length) - 1 }}
        yAxisProps={{ domain: [0, 'auto'], allowDecimals: false }}
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
        <div ref={ref}>{body}</div>
      </Stack>
    </Card>
  );
}
