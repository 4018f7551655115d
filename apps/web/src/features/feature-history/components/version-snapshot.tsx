import type { ReactNode } from 'react';
import { Badge, Group, List, Stack, Text } from '@mantine/core';
import {
  audienceText,
  controlSnapshotSchema,
  featureSettingsSnapshotSchema,
  servesText,
  type ControlSnapshot,
  type FeatureSettingsSnapshot,
} from '@vexil/core';

const sentenceCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Names for what a snapshot refers to by key: variants (and, through the rules, targets). */
export type SnapshotNames = { variants: Readonly<Record<string, string>> };

function ControlState({ snapshot, names }: { snapshot: ControlSnapshot; names: SnapshotNames }) {
  const nameOf = (key: string) => names.variants[key] ?? key;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Badge color={snapshot.enabled ? 'green' : 'gray'} variant="light">
          {snapshot.enabled ? 'On' : 'Off'}
        </Badge>
        <Text size="sm">When off, everyone gets {nameOf(snapshot.offVariantKey)}.</Text>
      </Group>
      {snapshot.rules.length === 0 ? (
        <Text size="sm" c="dimmed">
          No rules.
        </Text>
      ) : (
        <List type="ordered" size="sm" spacing={4}>
          {snapshot.rules.map((rule, index) => (
            <List.Item key={index}>
              {sentenceCase(audienceText(rule.audience))} → {servesText(rule.variantSplits, nameOf)}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function SettingsState({ snapshot }: { snapshot: FeatureSettingsSnapshot }) {
  const none = (
    <Text span c="dimmed" size="sm">
      None
    </Text>
  );
  return (
    <Stack gap="xs">
      <Field label="Name">{snapshot.name}</Field>
      <Field label="Description">{snapshot.description || none}</Field>
      <Field label="Variants">
        {snapshot.variants.map((variant) => `${variant.name} (${variant.key})`).join(', ')}
      </Field>
      <Field label="Permanent">{snapshot.permanent ? 'Yes' : 'No'}</Field>
      <Field label="Tags">{snapshot.tags.length > 0 ? snapshot.tags.join(', ') : none}</Field>
      <Field label="Goals">{snapshot.goals.length > 0 ? snapshot.goals.join(', ') : none}</Field>
      <Field label="Maintainer">{snapshot.maintainer?.name ?? none}</Field>
    </Stack>
  );
}

/**
 * A version's snapshot as a person reads it: a control's switch, off variant and rules in words, or a
 * feature's settings field by field; never raw JSON. A snapshot this version of the dashboard cannot
 * read says so.
 */
export function VersionSnapshot({ snapshot, names }: { snapshot: unknown; names: SnapshotNames }) {
  const control = controlSnapshotSchema.safeParse(snapshot);
  if (control.success) return <ControlState snapshot={control.data} names={names} />;
  const settings = featureSettingsSnapshotSchema.safeParse(snapshot);
  if (settings.success) return <SettingsState snapshot={settings.data} />;
  return (
    <Text size="sm" c="dimmed">
      This version cannot be shown.
    </Text>
  );
}
