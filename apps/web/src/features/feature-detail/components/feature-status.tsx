import { Badge, Group, ThemeIcon, Tooltip } from '@mantine/core';
import { IconClockPause } from '@tabler/icons-react';
import type { FeatureControl } from '@vexil/core';
import { STATUS_LOOK, type Status } from '../../../components/feature-status';
import { days } from '../../../lib/control-labels';

/*
 * The icons and colours are those of the feature list's status icons, so a status looks the same on
 * both screens; here the tooltips say more (the environment, what the rules serve) and stale days show.
 */

function availability(control: FeatureControl, environmentName: string): Status {
  return control.available
    ? {
        label: `Available: an SDK has reported this feature in ${environmentName}.`,
        ...STATUS_LOOK.available,
      }
    : {
        label: `Not available yet: no SDK has reported this feature in ${environmentName}.`,
        ...STATUS_LOOK.unavailable,
      };
}

function traffic(control: FeatureControl): Status {
  switch (control.trafficStatus) {
    case 'active':
      return { label: 'Traffic: active, evaluated in the last few days.', ...STATUS_LOOK.active };
    case 'inactive':
      return {
        label: `Traffic: inactive, no impressions for ${days(control.staleDays)}.`,
        ...STATUS_LOOK.inactive,
      };
    case 'never':
      return { label: 'Traffic: never evaluated.', ...STATUS_LOOK.never };
  }
}

function targeting(control: FeatureControl): Status {
  switch (control.targetingStatus) {
    case 'off':
      return { label: `Targeting: off. ${control.rulesDescription}`, ...STATUS_LOOK.off };
    case 'single':
      return { label: `Targeting: one variant. ${control.rulesDescription}`, ...STATUS_LOOK.single };
    case 'targeted':
      return { label: `Targeting: targeted. ${control.rulesDescription}`, ...STATUS_LOOK.targeted };
  }
}

/** One icon of the indicator; its tooltip and its accessible name say the same thing. */
function StatusIcon({ status }: { status: Status }) {
  return (
    <Tooltip
      label={status.label}
      withArrow
      multiline
      maw={280}
      events={{ hover: true, focus: true, touch: true }}
    >
      <ThemeIcon
        variant="light"
        color={status.color}
        size="md"
        radius="xl"
        role="img"
        aria-label={status.label}
        tabIndex={0}
      >
        {status.icon}
      </ThemeIcon>
    </Tooltip>
  );
}

/**
 * docs/product.md §2 "status indicator": availability, traffic status, targeting status and stale days of the
 * feature in one environment, as icons whose tooltips explain them.
 */
export function FeatureStatus({
  control,
  environmentName,
}: {
  control: FeatureControl;
  environmentName: string;
}) {
  const stale = control.trafficStatus !== 'active' && control.staleDays > 0;
  const staleLabel =
    control.trafficStatus === 'inactive'
      ? `Stale: no impressions for ${days(control.staleDays)}.`
      : `Stale: created ${days(control.staleDays)} ago and never evaluated.`;

  return (
    <Group gap={6} wrap="nowrap" aria-label={`Status in ${environmentName}`} role="group">
      <StatusIcon status={availability(control, environmentName)} />
      <StatusIcon status={traffic(control)} />
      <StatusIcon status={targeting(control)} />
      {stale ? (
        <Tooltip label={staleLabel} withArrow multiline maw={280}>
          <Badge
            variant="light"
            color={control.trafficStatus === 'inactive' ? 'orange' : 'gray'}
            leftSection={<IconClockPause size={12} aria-hidden="true" />}
            aria-label={staleLabel}
            tabIndex={0}
          >
            {days(control.staleDays)}
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}
