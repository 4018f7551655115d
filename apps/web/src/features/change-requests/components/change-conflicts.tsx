import { useId, useState } from 'react';
import { Button, Code, Group, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconGitMerge, IconGitPullRequestConflict } from '@tabler/icons-react';
import { unchosenConflictMessage, type ChangeRequestChange } from '@vexil/core';
import type { RebaseKeep } from '../../../entities/change-requests/api/change-request-changes';
import { DisabledReason } from '../../../components/disabled-reason';

type Conflict = ChangeRequestChange['conflicts'][number];
type Side = RebaseKeep[string];

/** How the author brings a change up to date: `keep` chooses a side per part in conflict. */
export type BringUpToDate = {
  pending: boolean;
  /** Sends the choices; resolves whether the server took them. */
  onBringUpToDate: (keep: RebaseKeep) => Promise<boolean>;
};

/** A value of a conflicting part, as readable JSON (text, never markup). */
function Value({ label, value }: { label: string; value: unknown }) {
  const json = value === undefined ? '(none)' : JSON.stringify(value, null, 2);
  return (
    <Stack gap={4} miw={0}>
      <Text size="xs" fw={600} c="dimmed">
        {label}
      </Text>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {json}
      </Code>
    </Stack>
  );
}

/**
 * Keep live or keep mine, for one part. Two plain radios under a radiogroup named by the part's
 * heading: Mantine's Radio.Group can only be named by a label of its own, which would say the part's
 * name twice.
 */
function KeepChoice({
  labelledBy,
  value,
  disabled,
  onChange,
}: {
  labelledBy: string;
  value: Side | undefined;
  disabled: boolean;
  onChange: (side: Side) => void;
}) {
  const name = useId();
  return (
    <Group gap="lg" role="radiogroup" aria-labelledby={labelledBy}>
      <Radio
        name={name}
        value="live"
        label="Keep live"
        checked={value === 'live'}
        disabled={disabled}
        onChange={() => onChange('live')}
      />
      <Radio
        name={name}
        value="proposed"
        label="Keep mine"
        checked={value === 'proposed'}
        disabled={disabled}
        onChange={() => onChange('proposed')}
      />
    </Group>
  );
}

/**
 * The parts both the request and someone since changed differently: as drafted on, live now,
 * proposed. With `bringUpToDate` (the user may edit the request), a choice of side for each part and
 * "Bring up to date", enabled once every part has one; without it, only what the author must decide.
 */
export function ChangeConflicts({
  conflicts,
  bringUpToDate,
}: {
  conflicts: Conflict[];
  bringUpToDate: BringUpToDate | null;
}) {
  const id = useId();
  const [keep, setKeep] = useState<RebaseKeep>({});
  const unchosen = conflicts.find((conflict) => keep[conflict.part] === undefined);
  const pending = bringUpToDate?.pending ?? false;

  const send = async () => {
    if (!bringUpToDate || unchosen) return;
    // Only the parts in conflict now: a choice for a part that no longer conflicts is not sent.
    const chosen = Object.fromEntries(conflicts.map((conflict) => [conflict.part, keep[conflict.part]!]));
    if (await bringUpToDate.onBringUpToDate(chosen)) setKeep({});
  };

  return (
    <Stack
      gap="sm"
      p="sm"
      role="group"
      aria-label="Conflicts with what is live"
      style={{
        border: '1px solid var(--mantine-color-orange-outline)',
        borderRadius: 'var(--mantine-radius-md)',
        background: 'var(--mantine-color-orange-light)',
      }}
    >
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconGitPullRequestConflict
          size={16}
          aria-hidden="true"
          color="var(--mantine-color-orange-filled)"
          style={{ flexShrink: 0, marginTop: 2 }}
        />
        <Text size="sm" fw={600}>
          {bringUpToDate
            ? 'Someone changed this since it was drafted. Choose what to keep for each part:'
            : 'Someone changed this since it was drafted. The author must decide these parts:'}
        </Text>
      </Group>
      {conflicts.map((conflict, index) => (
        <Stack key={conflict.part} gap={6} role="group" aria-label={conflict.label}>
          <Text size="sm" fw={600} id={`${id}-${index}`} style={{ overflowWrap: 'anywhere' }}>
            {conflict.label}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Value label="When drafted" value={conflict.base} />
            <Value label="Live now" value={conflict.live} />
            <Value label="Proposed" value={conflict.proposed} />
          </SimpleGrid>
          {bringUpToDate ? (
            <KeepChoice
              labelledBy={`${id}-${index}`}
              value={keep[conflict.part]}
              disabled={pending}
              onChange={(side) => setKeep((current) => ({ ...current, [conflict.part]: side }))}
            />
          ) : null}
        </Stack>
      ))}
      {bringUpToDate ? (
        <Group justify="flex-end">
          <DisabledReason denial={unchosen ? unchosenConflictMessage(unchosen.label) : null}>
            <Button
              size="sm"
              leftSection={<IconGitMerge size={16} aria-hidden="true" />}
              disabled={unchosen !== undefined}
              loading={pending}
              onClick={() => void send()}
            >
              Bring up to date
            </Button>
          </DisabledReason>
        </Group>
      ) : null}
    </Stack>
  );
}
