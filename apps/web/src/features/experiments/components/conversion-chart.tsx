import { LineChart } from '@mantine/charts';
import { Center, Text } from '@mantine/core';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import type { ExperimentDay } from '@vexil/core';

dayjs.extend(utc);

/*
 * The statistics page's chart, in a module of its own: the page loads it (and the charting library)
 * after its first paint, so the page's own chunk stays small.
 */

export const NO_DAILY_FIGURES_MESSAGE = 'No daily figures yet.';

export type ConversionChartVariant = { key: string; label: string; color: string };

/**
 * One row per day: the day ("3 Mar", a UTC day as the server counts them) and each variant's
 * cumulative conversion rate in percent (`v0`, `v1`... in the order of `variants`), left out on days
 * before the variant had any exposed user.
 */
export function conversionRows(
  daily: readonly ExperimentDay[],
  variants: readonly Pick<ConversionChartVariant, 'key'>[],
): Record<string, string | number>[] {
  return daily.map((day) => {
    const row: Record<string, string | number> = { day: dayjs.utc(day.day).format('D MMM') };
    variants.forEach((variant, index) => {
      const figures = day.variants[variant.key];
      if (figures && figures.impressions > 0) {
        row[`v${index}`] = (figures.goals / figures.impressions) * 100;
      }
    });
    return row;
  });
}

/** The cumulative conversion rate of each variant at the end of each day. */
export function ConversionChart({
  daily,
  variants,
}: {
  daily: readonly ExperimentDay[];
  variants: readonly ConversionChartVariant[];
}) {
  if (daily.length === 0) {
    return (
      <Center mih={160}>
        <Text c="dimmed">{NO_DAILY_FIGURES_MESSAGE}</Text>
      </Center>
    );
  }
  return (
    <LineChart
      h={260}
      data={conversionRows(daily, variants)}
      dataKey="day"
      series={variants.map((variant, index) => ({
        name: `v${index}`,
        label: variant.label,
        color: variant.color,
      }))}
      curveType="linear"
      connectNulls
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      tickLine="x"
      withDots={daily.length <= 14}
      // The axis in whole (or few-decimal) percentages, the tooltip to 2 decimals as the table.
      yAxisProps={{ domain: [0, 'auto'], tickFormatter: (value: number) => `${value} %` }}
      valueFormatter={(value) => `${value.toFixed(2)} %`}
      aria-label="Cumulative conversion rate by variant and day"
    />
  );
}
