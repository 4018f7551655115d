import { Text } from '@mantine/core';
import { formatCount, type Schedule } from '@vexil/core';

/**
 * A started ramp's arms: the users of its rule first served the ramped variant or another, in all and
 * since the current step began; nothing before the first step or for other schedules.
 */
export function RampArms({ arms, variantName }: { arms: Schedule['arms']; variantName: string }) {
  if (!arms) return null;
  if (arms.treatment === 0 && arms.control === 0) {
    return (
      <Text size="sm" c="dimmed">
        No users counted yet: impressions of this rule appear here as SDKs report them.
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      Users so far: {formatCount(arms.treatment)} on {variantName} · {formatCount(arms.control)} on the others
      (this step: {formatCount(arms.stepTreatment)} · {formatCount(arms.stepControl)})
    </Text>
  );
}
