import { Alert, Button, Group, List, Paper, Text, TextInput } from '@mantine/core';
import { MAX_LENGTH } from '@vexil/core';
import { IconAlertCircle, IconDeviceFloppy, IconRestore } from '@tabler/icons-react';
import { ReloadAction } from '../../../components/form-failure';
import classes from './targeting.module.css';

export type Failure = {
  title: string;
  problems: { place: string | null; message: string }[];
  /** Refused because the control changed since the editor loaded it: Reload is offered. */
  stale?: boolean;
};

/**
 * docs/product.md §8 "the form marked failed": the server's title and each problem, with where it is; for a save
 * refused as stale, a Reload button that loads the stored targeting in place of the edit.
 */
export function SaveFailureAlert({
  failure,
  reloading = false,
  onReload,
}: {
  failure: Failure;
  reloading?: boolean;
  onReload?: () => void;
}) {
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertCircle size={18} aria-hidden />}
      title="The targeting was not saved"
    >
      <Text size="sm">{failure.title}</Text>
      {failure.problems.length > 0 ? (
        <List size="sm" mt={4}>
          {failure.problems.map((problem, index) => (
            <List.Item key={index}>
              {problem.place ? `${problem.place}: ` : ''}
              {problem.message}
            </List.Item>
          ))}
        </List>
      ) : null}
      {failure.stale && onReload ? <ReloadAction reloading={reloading} onReload={onReload} /> : null}
    </Alert>
  );
}

const STATUS_TEXT = {
  invalid: 'Fix the highlighted fields to save.',
  conflict: 'Keep yours or take theirs for each change above to save.',
  dirty: 'You have unsaved changes.',
  requested: 'Your edit is in a change request: it goes live once the request is applied.',
  saved: 'Everything is saved.',
} as const;

export type SaveBarProps = {
  status: keyof typeof STATUS_TEXT;
  saving: boolean;
  canReset: boolean;
  onReset: () => void;
  onSave: () => void;
  /** Why, kept with the version the save creates (optional; asked while there is something to save). */
  comment: string;
  onCommentChange: (comment: string) => void;
  /** "Save", or "Add to change request" where the environment asks for change requests. */
  saveLabel?: string;
};

/**
 * Reset, an optional comment and Save, kept at the bottom of the screen; Save only for valid, changed
 * targeting.
 */
export function SaveBar({
  status,
  saving,
  canReset,
  onReset,
  onSave,
  comment,
  onCommentChange,
  saveLabel = 'Save',
}: SaveBarProps) {
  return (
    <Paper withBorder radius="md" p="sm" className={classes.saveBar}>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c={status === 'invalid' || status === 'conflict' ? 'red' : 'dimmed'}>
          {STATUS_TEXT[status]}
        </Text>
        {status === 'saved' || status === 'requested' ? null : (
          <TextInput
            aria-label="Comment"
            placeholder="Comment (optional): why?"
            value={comment}
            maxLength={MAX_LENGTH.comment}
            onChange={(event) => onCommentChange(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') onSave();
            }}
            style={{ flex: '1 1 14rem' }}
          />
        )}
        <Group gap="sm" ml="auto">
          <Button
            variant="default"
            leftSection={<IconRestore size={16} aria-hidden />}
            onClick={onReset}
            disabled={saving || !canReset}
          >
            Reset
          </Button>
          <Button
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            onClick={onSave}
            loading={saving}
            disabled={status !== 'dirty'}
          >
            {saveLabel}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
