import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Alert, Badge, Button, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { RampAlert } from '@vexil/core';
import { CopyKeyButton } from '../../../components/api-keys-modal';
import { CodeBlock } from '../../../components/code-block';
import { formatDate } from '../../../lib/format';

/*
 * The parts of the Alert URL modal (ramp-alert-modal.tsx): what an alert does, the URL shown once,
 * what is known of the URL the ramp has, and the questions asked before replacing or removing it.
 */

export type RampAlertAction = RampAlert['action'];

export const ALERT_URL_EXPLANATION =
  'Any alerting tool — Alertmanager, Grafana, Datadog — can post to this URL to stop the ramp.';
export const SHOWN_ONCE_TITLE = 'Copy it now: it is shown only once.';

const ACTION_CHOICES: { value: RampAlertAction; label: string }[] = [
  { value: 'rollback', label: 'Roll back' },
  { value: 'pause', label: 'Pause' },
];

/** What an alert does to the ramp, as a sentence's end: "An alert …". */
export const ALERT_EFFECTS: Readonly<Record<RampAlertAction, string>> = {
  rollback: 'rolls the ramp back: the rule goes back exactly as it was before the ramp.',
  pause: 'pauses the ramp where it is, until someone resumes it.',
};

/** The example a person can try the URL with from a terminal. */
export const curlExample = (url: string) => `curl -X POST -H 'Content-Type: application/json' -d '{}' ${url}`;

/** Roll back or Pause, and what that choice means. */
export function ActionChoice({
  value,
  onChange,
  disabled = false,
}: {
  value: RampAlertAction;
  onChange: (action: RampAlertAction) => void;
  disabled?: boolean;
}) {
  const labelId = useId();
  return (
    <div>
      <Text id={labelId} size="sm" fw={500} mb={4}>
        When an alert comes
      </Text>
      <SegmentedControl
        aria-labelledby={labelId}
        value={value}
        onChange={(choice) => onChange(choice === 'pause' ? 'pause' : 'rollback')}
        data={ACTION_CHOICES}
        disabled={disabled}
      />
      <Text size="xs" c="dimmed" mt={4}>
        An alert {ALERT_EFFECTS[value]}
      </Text>
    </div>
  );
}

/** The URL just made, the only time it is shown, with a copy button and a line to try it with. */
export function CreatedAlertUrl({
  url,
  action,
  onDone,
}: {
  url: string;
  action: RampAlertAction;
  onDone: () => void;
}) {
  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
        title={SHOWN_ONCE_TITLE}
      >
        Whoever has this URL can stop the ramp: keep it in your alerting tool’s settings, like a password. If
        you lose it, replace it.
      </Alert>
      {/* A text area, so that the whole URL shows, wrapped on a phone, and can be selected. */}
      <Textarea
        label="Alert URL"
        description={`An alert posted to it ${ALERT_EFFECTS[action]}`}
        value={url}
        readOnly
        autosize
        minRows={1}
        onFocus={(event) => event.currentTarget.select()}
        rightSection={<CopyKeyButton value={url} label="alert URL" hidden={false} />}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
      />
      <Stack gap={6}>
        <Text size="sm" c="dimmed">
          To try it, post to it from a terminal. It stops the ramp, as an alert would.
        </Text>
        <CodeBlock title="curl" code={curlExample(url)} label="Example curl command" />
      </Stack>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

/** One line of the details: what, then its value. */
function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Group gap="xs" align="baseline" wrap="nowrap">
      <Text component="dt" size="sm" c="dimmed" w={120} style={{ flexShrink: 0 }}>
        {term}
      </Text>
      <Text component="dd" size="sm" m={0} miw={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** The server words the last alert's outcome "applied: …" or "skipped: …". */
function lastOutcome(lastResult: string | null): { applied: boolean; reason: string } | null {
  const match = /^(applied|skipped): (.*)$/s.exec(lastResult ?? '');
  if (!match) return null;
  return { applied: match[1] === 'applied', reason: match[2] ?? '' };
}

/** What is known of the ramp's alert URL: what an alert does, who made it and when, the last alert. */
export function AlertDetails({ alert }: { alert: RampAlert }) {
  const outcome = lastOutcome(alert.lastResult);
  return (
    <Stack component="dl" gap={6} m={0} aria-label="Alert URL details">
      <Detail term="An alert">{ALERT_EFFECTS[alert.action]}</Detail>
      <Detail term="Made by">
        {alert.createdBy}, <time dateTime={alert.createdDate}>{formatDate(alert.createdDate)}</time>
      </Detail>
      <Detail term="Last alert">
        {alert.lastAlertDate ? (
          <>
            <time dateTime={alert.lastAlertDate}>{formatDate(alert.lastAlertDate)}</time>
            {outcome ? (
              <>
                {' '}
                <Badge size="sm" variant="light" color={outcome.applied ? 'orange' : 'gray'}>
                  {outcome.applied ? 'Applied' : 'Skipped'}
                </Badge>{' '}
                {outcome.reason}
              </>
            ) : alert.lastResult ? (
              ` · ${alert.lastResult}`
            ) : null}
          </>
        ) : (
          'None has come yet.'
        )}
      </Detail>
    </Stack>
  );
}

export type ConfirmationProps = {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * A question asked inside the modal before it replaces or removes the URL: the modal stack shows only
 * its top modal, so a stacked confirmation would hide this one and the new URL with it (as in the Api
 * keys modal). It takes the focus, on the answer that changes nothing.
 */
export function Confirmation(props: ConfirmationProps) {
  const { title, children, confirmLabel, cancelLabel, danger = false, pending, onConfirm, onCancel } = props;
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <Alert
      color={danger ? 'red' : 'yellow'}
      variant="light"
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      title={title}
      // A question to answer, not an announcement: a failure is the alert.
      role="group"
      aria-label={title}
    >
      <Stack gap="sm">
        {children}
        <Group justify="flex-end" gap="sm">
          <Button ref={keep} variant="default" onClick={onCancel} disabled={pending}>
            {cancelLabel}
          </Button>
          <Button color={danger ? 'red' : undefined} loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
