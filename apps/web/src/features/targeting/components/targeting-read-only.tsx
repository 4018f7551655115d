import { Alert, Badge, Card, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import {
  BUILT_IN_TARGETS,
  OPERATORS,
  type Feature,
  type FeatureControl,
  type Operator,
  type Rule,
} from '@vexil/core';
import { useTargets } from '../../../entities/targets/api/get-targets';
import { conditionValueLabel, splitsLabel } from '../../../lib/control-labels';
import { operatorText, targetName } from './operator-labels';

type Names = {
  variant: (key: string) => string;
  target: (key: string) => string;
  operator: (op: string, target: string) => string;
};

function RuleText({ rule, index, names }: { rule: Rule; index: number; names: Names }) {
  const conditions = rule.audience?.conditions ?? [];
  const title = rule.defaultRule ? 'Otherwise (everyone else)' : `Rule ${index + 1}`;
  return (
    <Card withBorder radius="md" padding="md" component="li" aria-label={title}>
      <Stack gap="xs">
        <Text fw={600}>{title}</Text>
        {rule.defaultRule ? (
          <Text size="sm" c="dimmed">
            Users no rule above matches
          </Text>
        ) : (
          <List size="sm" spacing={4} listStyleType="none" aria-label="Conditions">
            {conditions.map((condition, c) => (
              <List.Item key={c}>
                {c > 0 ? (
                  <Text span size="xs" fw={700} c="dimmed" mr={6}>
                    AND
                  </Text>
                ) : null}
                <Text span fw={500} inherit>
                  {names.target(condition.target)}
                </Text>{' '}
                {names.operator(condition.operator, condition.target)}{' '}
                {condition.values.map((value, v) => (
                  <span key={v}>
                    {v > 0 ? ', ' : null}
                    <Code>{conditionValueLabel(value)}</Code>
                  </span>
                ))}
              </List.Item>
            ))}
          </List>
        )}
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            Serve
          </Text>
          <Text size="sm" fw={500}>
            {splitsLabel(rule.variantSplits, names.variant)}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

export type TargetingReadOnlyProps = { feature: Feature; control: FeatureControl; reason: string };

/** The targeting as text, for users who may not change it, with the reason why. */
export function TargetingReadOnly({ feature, control, reason }: TargetingReadOnlyProps) {
  const targets = useTargets(feature.projectKey).data ?? [];
  const variantNames = new Map(feature.variants.map((variant) => [variant.key, variant.name]));
  const names: Names = {
    variant: (key) => variantNames.get(key) ?? key,
    target: (key) => targetName(key, targets),
    operator: (operator, target) => {
      const type = targets.find((t) => t.key === target)?.type ?? BUILT_IN_TARGETS[target] ?? 'string';
      return OPERATORS.includes(operator as Operator) ? operatorText(operator as Operator, type) : operator;
    },
  };
  return (
    <Stack gap="md" maw={920}>
      <Alert color="gray" variant="light" icon={<IconLock size={18} aria-hidden />}>
        {reason}
      </Alert>
      <Card withBorder radius="md" padding="md">
        <Stack gap="xs">
          <Group gap="sm">
            <Badge variant="filled" color={control.enabled ? 'teal' : 'gray'} size="lg">
              {control.enabled ? 'On' : 'Off'}
            </Badge>
            <Text fw={500}>{control.rulesDescription}</Text>
          </Group>
          <Text size="sm">
            <Text span c="dimmed" inherit>
              Off variant:{' '}
            </Text>
            {names.variant(control.offVariantKey)}{' '}
            <Text span c="dimmed" inherit>
              (served to everyone while targeting is off)
            </Text>
          </Text>
        </Stack>
      </Card>
      <Title order={3} fz="lg">
        Rules
      </Title>
      <Text size="sm" c="dimmed">
        Rules are checked top to bottom; the first rule whose conditions all match decides.
      </Text>
      <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Rules">
        {control.rules.map((rule, index) => (
          <RuleText key={index} rule={rule} index={index} names={names} />
        ))}
      </Stack>
    </Stack>
  );
}
