import { Fragment, useId, useRef } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowDown,
  IconArrowUp,
  IconPlus,
  IconTrash,
  IconTrendingUp,
} from '@tabler/icons-react';
import { DisabledReason } from '../../../components/disabled-reason';
import { ConditionRow } from './condition-row';
import classes from './targeting.module.css';
import type { EditorEnv } from './editor-env';
import { ServeEditor } from './serve-editor';
import { emptyCondition, FALLBACK_ID, type RuleDraft, type ServeDraft } from './targeting-draft';
import { fieldKey } from './targeting-validation';

export const NO_EFFECT_WARNING = 'This rule serves the same as everyone else; it has no effect.';

/** A rule's Ramp action: what it opens, or why it is not offered now. */
export type RampAction = { onRamp: () => void; denial: string | null };

/** "Ramp": grows a variant's share of the rule step by step (ramp-editor-modal.tsx). */
function RampButton({ ramp, title }: { ramp: RampAction; title: string }) {
  return (
    <DisabledReason denial={ramp.denial}>
      <Button
        variant="subtle"
        size="compact-sm"
        style={{ flexShrink: 0 }}
        leftSection={<IconTrendingUp size={14} aria-hidden />}
        aria-label={`Ramp ${title}`}
        disabled={ramp.denial !== null}
        onClick={ramp.onRamp}
      >
        Ramp
      </Button>
    </DisabledReason>
  );
}

export type RuleCardProps = {
  env: EditorEnv;
  rule: RuleDraft;
  /** 0-based position among the targeted rules. */
  index: number;
  count: number;
  noEffect: boolean;
  onChange: (rule: RuleDraft) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
  /** The Ramp action; absent where the user may not schedule. */
  ramp?: RampAction | undefined;
};

/** A targeted rule: conditions joined by AND, what it serves, and its place in the order. */
export function RuleCard({
  env,
  rule,
  index,
  count,
  noEffect,
  onChange,
  onMove,
  onRemove,
  ramp,
}: RuleCardProps) {
  const titleId = useId();
  const upRef = useRef<HTMLButtonElement>(null);
  const downRef = useRef<HTMLButtonElement>(null);
  const title = `Rule ${index + 1}`;
  // A rule moved to either end loses the button just pressed: keep the keyboard on the other one.
  const move = (delta: number) => {
    onMove(delta);
    const next = index + delta;
    const other = next === 0 ? downRef : next === count - 1 ? upRef : null;
    if (other) requestAnimationFrame(() => other.current?.focus());
  };
  const ruleError = env.errors.get(fieldKey.rule(rule.id));
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      role="group"
      aria-labelledby={titleId}
      data-rule-id={rule.id}
      className={classes.ruleCard}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Badge variant="light" size="lg" circle aria-hidden>
              {index + 1}
            </Badge>
            <Title order={4} fz="md" id={titleId}>
              {title}
            </Title>
          </Group>
          <Group gap={4} wrap="nowrap">
            {ramp ? <RampButton ramp={ramp} title={title} /> : null}
            <Tooltip label="Move up">
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                className={classes.quietIcon}
                aria-label={`Move ${title} up`}
                disabled={index === 0}
                ref={upRef}
                onClick={() => move(-1)}
              >
                <IconArrowUp size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Move down">
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                className={classes.quietIcon}
                aria-label={`Move ${title} down`}
                disabled={index === count - 1}
                ref={downRef}
                onClick={() => move(1)}
              >
                <IconArrowDown size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Remove rule">
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove ${title}`}
                onClick={onRemove}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>

        <Text size="xs" fw={700} c="dimmed" tt="uppercase">
          If the user
        </Text>
        <Stack gap="xs">
          {rule.conditions.map((condition, c) => (
            <Fragment key={condition.id}>
              {c > 0 ? <Divider label="AND" labelPosition="left" /> : null}
              <ConditionRow
                env={env}
                condition={condition}
                number={c + 1}
                canRemove={rule.conditions.length > 1}
                onChange={(next) =>
                  onChange({
                    ...rule,
                    conditions: rule.conditions.map((item) => (item.id === condition.id ? next : item)),
                  })
                }
                onRemove={() =>
                  onChange({
                    ...rule,
                    conditions: rule.conditions.filter((item) => item.id !== condition.id),
                  })
                }
              />
            </Fragment>
          ))}
        </Stack>
        <Group>
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => onChange({ ...rule, conditions: [...rule.conditions, emptyCondition()] })}
          >
            Add condition
          </Button>
        </Group>
        {ruleError ? (
          <Text size="sm" c="red">
            {ruleError}
          </Text>
        ) : null}
        <Divider />
        <ServeEditor
          serve={rule.serve}
          variants={env.variants}
          label={title}
          error={env.errors.get(fieldKey.serve(rule.id))}
          onChange={(serve) => onChange({ ...rule, serve })}
        />
        {noEffect ? (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} p="xs">
            {NO_EFFECT_WARNING}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

export type FallbackCardProps = {
  env: EditorEnv;
  serve: ServeDraft;
  onChange: (serve: ServeDraft) => void;
  /** The Ramp action; absent where the user may not schedule. */
  ramp?: RampAction | undefined;
};

/** The ELSE rule: always last, never moved or removed (docs/product.md §4). */
export function FallbackCard({ env, serve, onChange, ramp }: FallbackCardProps) {
  const titleId = useId();
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      role="group"
      aria-labelledby={titleId}
      bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))"
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <div style={{ flex: 1, minWidth: 0 }}>
            <Title order={4} fz="md" id={titleId}>
              Otherwise (everyone else)
            </Title>
            <Text size="sm" c="dimmed">
              Users no rule above matches get this.
            </Text>
          </div>
          {ramp ? <RampButton ramp={ramp} title="Everyone else" /> : null}
        </Group>
        <ServeEditor
          serve={serve}
          variants={env.variants}
          label="Everyone else"
          error={env.errors.get(fieldKey.serve(FALLBACK_ID))}
          onChange={onChange}
        />
      </Stack>
    </Card>
  );
}
