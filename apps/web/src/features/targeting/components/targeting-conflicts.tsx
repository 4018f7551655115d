import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconGitMerge } from '@tabler/icons-react';
import dayjs from 'dayjs';
import {
  TARGETING_CONFLICT_HINT,
  TARGETING_PART_LABELS,
  targetingChangedMessage,
  type TargetingPart,
} from '@vexil/core';
import type { TargetingDraft } from './targeting-draft';
import { partText } from './targeting-merge';
import type { Conflict } from './targeting-sync';

export type TargetingConflictsProps = {
  conflict: Conflict;
  draft: TargetingDraft;
  variantNames: Readonly<Record<string, string>>;
  onChoose: (part: TargetingPart, side: 'mine' | 'theirs') => void;
  onDismiss: () => void;
};

/** One side of a part: whose, and what it says. */
function Side({ label, text }: { label: string; text: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span fw={600}>
        {label}:
      </Text>{' '}
      {text}
    </Text>
  );
}

/**
 * "{member} changed this targeting at {time}." above the form while it holds an edit
 * (docs/adr/0013-concurrent-edits.md): what they saved is already in every part the edit left alone;
 * for each part both changed, both sides and "Keep mine" / "Take theirs". Nothing of the edit is lost.
 */
export function TargetingConflicts({
  conflict,
  draft,
  variantNames,
  onChoose,
  onDismiss,
}: TargetingConflictsProps) {
  const time = dayjs(conflict.at).format('HH:mm');
  const message = targetingChangedMessage(conflict.by ?? 'Someone', time);
  const { theirs, parts } = conflict;
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      icon={<IconGitMerge size={18} aria-hidden />}
      title={message}
    >
      {theirs === null ? (
        <Text size="sm">Loading their changes into the form; your edits are kept.</Text>
      ) : parts.length === 0 ? (
        <Group justify="space-between" gap="sm">
          <Text size="sm">Their changes are in the form with yours: save to keep both.</Text>
          <Button variant="subtle" size="xs" onClick={onDismiss}>
            Dismiss
          </Button>
        </Group>
      ) : (
        <Stack gap="sm">
          <Text size="sm">{TARGETING_CONFLICT_HINT}</Text>
          {parts.map((part) => (
            <Stack
              key={part}
              gap={4}
              role="group"
              aria-label={TARGETING_PART_LABELS[part]}
              pt="xs"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <Text size="sm" fw={700}>
                {TARGETING_PART_LABELS[part]}
              </Text>
              <Side label="Yours" text={partText(draft, part, variantNames)} />
              <Side label="Theirs" text={partText(theirs, part, variantNames)} />
              <Group gap="xs" mt={4}>
                <Button size="xs" variant="default" onClick={() => onChoose(part, 'mine')}>
                  Keep mine
                </Button>
                <Button size="xs" variant="light" onClick={() => onChoose(part, 'theirs')}>
                  Take theirs
                </Button>
              </Group>
            </Stack>
          ))}
        </Stack>
      )}
    </Alert>
  );
}
