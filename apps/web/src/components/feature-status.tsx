import type { ReactNode } from 'react';
import { Group, ThemeIcon, Tooltip } from '@mantine/core';
import {
  IconActivity,
  IconActivityHeartbeat,
  IconArrowsSplit,
  IconCircleCheck,
  IconCloudCheck,
  IconCloudOff,
  IconPower,
  IconZzz,
} from '@tabler/icons-react';
import type { FeatureControl, Variant } from '@vexil/core';
import { days } from '../lib/control-labels';

export type Status = { label: string; color: string; icon: ReactNode };

const ICON_SIZE = 16;

/**
 * How each status looks, on the feature list and on the feature page alike: its colour and icon.
 * Each screen writes its own words.
 */
export const STATUS_LOOK = {
  available: { color: 'teal', icon: <IconCloudCheck size={ICON_SIZE} aria-hidden="true" /> },
  unavailable: { color: 'gray', icon: <IconCloudOff size={ICON_SIZE} aria-hidden="true" /> },
  never: { color: 'gray', icon: <IconActivity size={ICON_SIZE} aria-hidden="true" /> },
  inactive: { color: 'orange', icon: <IconZzz size={ICON_SIZE} aria-hidden="true" /> },
  active: { color: 'teal', icon: <IconActivityHeartbeat size={ICON_SIZE} aria-hidden="true" /> },
  off: { color: 'gray', icon: <IconPower size={ICON_SIZE} aria-hidden="true" /> },
  targeted: { color: 'violet', icon: <IconArrowsSplit size={ICON_SIZE} aria-hidden="true" /> },
  single: { color: 'teal', icon: <IconCircleCheck size={ICON_SIZE} aria-hidden="true" /> },
} as const satisfies Record<string, Omit<Status, 'label'>>;

/** docs/product.md §4 "Availability": a feature is not registered in an environment until an SDK reports it there. */
export function availabilityStatus(control: Pick<FeatureControl, 'available'>): Status {
  return control.available
    ? { label: 'Seen by an SDK in this environment', ...STATUS_LOOK.available }
    : { label: 'Not seen by an SDK in this environment yet', ...STATUS_LOOK.unavailable };
}

/** docs/product.md §4 "Traffic status": never, inactive (no traffic for staleDays), active. */
export function trafficStatus(
  control: Pick<FeatureControl, 'trafficStatus' | 'staleDays' | 'statistics'>,
): Status {
  switch (control.trafficStatus) {
    case 'never':
      return { label: 'No impressions yet', ...STATUS_LOOK.never };
    case 'inactive':
      return { label: `No impressions for ${days(control.staleDays)}`, ...STATUS_LOOK.inactive };
    case 'active': {
      const today = control.statistics.impressions.today;
      return {
        label: `Active: ${today.toLocaleString('en')} impression${today === 1 ? '' : 's'} today`,
        ...STATUS_LOOK.active,
      };
    }
  }
}

/** The variant everyone gets from the default (ELSE) rule when it gives one variant 100%. */
function singleVariantName(control: Pick<FeatureControl, 'rules'>, variants: readonly Variant[]): string {
  const fallback = control.rules.find((rule) => rule.defaultRule);
  const key = fallback?.variantSplits.find((split) => split.split === 100)?.variantKey ?? '';
  return variants.find((variant) => variant.key === key)?.name ?? key;
}

/** docs/product.md §4 "Targeting status": off; targeted; a single variant at 100%. */
export function targetingStatus(
  control: Pick<FeatureControl, 'targetingStatus' | 'rules'>,
  variants: readonly Variant[],
): Status {
  switch (control.targetingStatus) {
    case 'off':
      return { label: 'Off', ...STATUS_LOOK.off };
    case 'targeted':
      return { label: 'Targeted', ...STATUS_LOOK.targeted };
    case 'single':
      return { label: `100% ${singleVariantName(control, variants)}`, ...STATUS_LOOK.single };
  }
}

function StatusIcon({ status, kind }: { status: Status; kind: string }) {
  return (
    <Tooltip
      label={status.label}
      withArrow
      openDelay={150}
      events={{ hover: true, focus: true, touch: true }}
    >
      <ThemeIcon
        variant="light"
        color={status.color}
        size="md"
        radius="xl"
        role="img"
        aria-label={`${kind}: ${status.label}`}
        tabIndex={0}
      >
        {status.icon}
      </ThemeIcon>
    </Tooltip>
  );
}

/** The three status icons of a feature's control: availability, traffic and targeting, with tooltips. */
export function FeatureStatusIcons({
  control,
  variants,
}: {
  control: FeatureControl;
  variants: readonly Variant[];
}) {
  return (
    <Group gap={6} wrap="nowrap">
      <StatusIcon kind="Availability" status={availabilityStatus(control)} />
      <StatusIcon kind="Traffic" status={trafficStatus(control)} />
      <StatusIcon kind="Targeting" status={targetingStatus(control, variants)} />
    </Group>
  );
}
