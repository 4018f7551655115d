import { Badge, Card, Group, Paper, Select, Stack, Switch, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { Variant } from '@vexil/core';

export type TargetingStatusCardProps = {
  enabled: boolean;
  offVariantKey: string | null;
  variants: readonly Pick<Variant, 'key' | 'name'>[];
  /** describeRules of the rules on screen. */
  summary: string;
  offVariantError?: string | undefined;
  onEnabledChange: (enabled: boolean) => void;
  onOffVariantChange: (variantKey: string) => void;
};

/** The switch, the off variant and a one-line summary of what the rules on screen do. */
export function TargetingStatusCard({
  enabled,
  offVariantKey,
  variants,
  summary,
  offVariantError,
  onEnabledChange,
  onOffVariantChange,
}: TargetingStatusCardProps) {
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div>
            <Switch
              size="md"
              label="Targeting enabled"
              checked={enabled}
              onChange={(event) => onEnabledChange(event.currentTarget.checked)}
            />
            <Text size="sm" c="dimmed" mt={4}>
              {enabled
                ? 'Users get the variant the rules below choose.'
                : 'Targeting is off: everyone gets the off variant.'}
            </Text>
          </div>
          <Badge variant="filled" color={enabled ? 'teal' : 'gray'} size="lg">
            {enabled ? 'On' : 'Off'}
          </Badge>
        </Group>
        <Select
          label="Off variant"
          description="Served to everyone while targeting is off."
          allowDeselect={false}
          data={variants.map((variant) => ({ value: variant.key, label: variant.name }))}
          value={offVariantKey}
          onChange={(variantKey) => variantKey && onOffVariantChange(variantKey)}
          error={offVariantError}
          maw={360}
        />
        <Paper radius="md" p="sm" bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-7))">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconInfoCircle size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="sm" fw={500}>
              {summary}
            </Text>
          </Group>
        </Paper>
      </Stack>
    </Card>
  );
}
