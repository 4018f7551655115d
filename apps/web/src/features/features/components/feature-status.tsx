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

type Status = { label: string; color: string; icon: ReactNode };

const ICON_SIZE = 16;

/** Spec §4 "Availability": a feature is not registered in an environment until an SDK reports it there. */
export function availabilityStatus(control: Pick<FeatureControl, 'available'>): Status {
  return control.available
    ? {
        label: 'Seen by an SDK in this environment',
        color: 'teal',
        icon: <IconCloudCheck size={ICON_SIZE} aria-hidden="true" />,
      }
    : {
        label: 'Not seen by an SDK in this environment yet',
        color: 'gray',
        icon: <IconCloudOff size={ICON_SIZE} aria-hidden="true" />,
      };
}

function days(count: number): string {
  return `${count} day${count === 1 ? '' : 's'}`;
}

/** Spec §4 "Traffic status": never, inactive (no traffic for staleDays), active. */
export function trafficStatus(
  control: Pick<FeatureControl, 'trafficStatus' | 'staleDays' | 'statistics'>,
): Status {
  switch (control.trafficStatus) {
    case 'never':
      return {
        label: 'No impressions yet',
        color: 'gray',
        icon: <IconActivity size={ICON_SIZE} aria-hidden="true" />,
      };
    case 'inactive':
      return {
        label: `No impressions for ${days(control.staleDays)}`,
        color: 'orange',
        icon: <IconZzz size={ICON_SIZE} aria-hidden="true" />,
      };
    case 'active': {
      const today = control.statistics.impressions.today;
      return {
        label: `Active: ${today.toLocaleString('en')} impression${today === 1 ? '' : 's'} today`,
        color: 'teal',
        icon: <IconActivityHeartbeat size={ICON_SIZE} aria-hidden="true" />,
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

/** Spec §4 "Targeting status": off; targeted; a single variant at 100%. */
export function targetingStatus(
  control: Pick<FeatureControl, 'targetingStatus' | 'rules'>,
  variants: readonly Variant[],
): Status {
  switch (control.targetingStatus) {
    case 'off':
      return { label: 'Off', color: 'gray', icon: <IconPower size={ICON_SIZE} aria-hidden="true" /> };
    case 'targeted':
      return {
        label: 'Targeted',
        color: 'violet',
        icon: <IconArrowsSplit size={ICON_SIZE} aria-hidden="true" />,
      };
    case 'single':
      return {
        label: `100% ${singleVariantName(control, variants)}`,
        color: 'teal',
        icon: <IconCircleCheck size={ICON_SIZE} aria-hidden="true" />,
      };
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
