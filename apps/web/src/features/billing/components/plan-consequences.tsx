import { Alert, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { PlanChangePreview } from '@vexil/core';

/** The note under the list of limits passed: what passing them means. */
export const OVER_LIMITS_NOTE =
  'Nothing is deleted, but nothing more of these can be added until the organisation is within them.';

/**
 * What the change would mean, said before it is confirmed: the new plan's limits the organisation
 * already passes, and what it would lose (the audit log, experiments, the rest of its trial).
 */
export function PlanConsequences({ preview }: { preview: PlanChangePreview }) {
  if (preview.exceeded.length === 0 && preview.lost.length === 0) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      title={`Before you move to ${preview.plan}`}
      aria-label="What changes with this plan"
    >
      <Stack gap="sm">
        {preview.exceeded.length > 0 ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Over the {preview.plan} plan’s limits
            </Text>
            <List size="sm" spacing={2} aria-label={`Over the ${preview.plan} plan’s limits`}>
              {preview.exceeded.map((excess) => (
                <List.Item key={excess.key}>{excess.message}</List.Item>
              ))}
            </List>
            <Text size="sm">{OVER_LIMITS_NOTE}</Text>
          </Stack>
        ) : null}
        {preview.lost.length > 0 ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              You will lose
            </Text>
            <List size="sm" spacing={2} aria-label="You will lose">
              {preview.lost.map((loss) => (
                <List.Item key={loss.key}>{loss.message}</List.Item>
              ))}
            </List>
          </Stack>
        ) : null}
      </Stack>
    </Alert>
  );
}
