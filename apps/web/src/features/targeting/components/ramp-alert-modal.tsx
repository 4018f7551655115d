import { useRef, useState } from 'react';
import { Button, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { IconBellRinging, IconRefresh, IconTrash } from '@tabler/icons-react';
import { FINAL_SCHEDULE_STATES, type RampAlert, type Schedule } from '@vexil/core';
import { FormFailure } from '../../../components/form-failure';
import { errorReason, LoadError } from '../../../components/load-error';
import {
  useMakeRampAlert,
  useRampAlert,
  useRemoveRampAlert,
} from '../../../entities/schedules/api/ramp-alert';
import { isApiError } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import {
  ActionChoice,
  AlertDetails,
  ALERT_URL_EXPLANATION,
  Confirmation,
  CreatedAlertUrl,
  type RampAlertAction,
} from './ramp-alert-views';

export const RAMP_ALERT_FAILED_MESSAGE = 'The alert URL was not changed.';
export const RAMP_ALERT_REMOVED_MESSAGE = 'Alert URL removed.';
const HAS_ALERT_URL =
  'This ramp has an alert URL: any alerting tool that posts to it stops the ramp. The URL itself was shown once, when it was made.';

/**
 * Whether a schedule's card offers its alert URL: a ramp not yet finished, to members who may act on
 * it (the server lets them alone make, read and remove it).
 */
export function alertUrlOffered(schedule: Pick<Schedule, 'kind' | 'state'>, denial: string | null): boolean {
  return schedule.kind === 'ramp' && !FINAL_SCHEDULE_STATES.includes(schedule.state) && denial === null;
}

export type RampAlertModalProps = {
  schedule: Pick<Schedule, 'projectKey' | 'id'>;
  /** The card's summary ("Ramp On in Everyone else to 100 %"), under the title. */
  summary: string;
  onClose: () => void;
};

/**
 * A ramp's alert URL (docs/adr/0026-guarded-rollouts.md). Without one: what it is for, what an alert
 * does (roll back by default, or pause) and Create alert URL. Just made: the URL, this once, with a
 * copy button and a curl line to try it. With one: what an alert does, who made it and when, the last
 * alert and what it did, and Replace URL and Remove, each asked first in the modal. Refusals show in
 * place, in the server's words.
 */
export function RampAlertModal({ schedule, summary, onClose }: RampAlertModalProps) {
  const { projectKey, id } = schedule;
  const alert = useRampAlert(projectKey, id);
  const make = useMakeRampAlert();
  const remove = useRemoveRampAlert();
  /** The answer that made the URL: the one time the URL is known. */
  const [made, setMade] = useState<RampAlert | null>(null);
  const [asking, setAsking] = useState<'replace' | 'remove' | null>(null);
  const [action, setAction] = useState<RampAlertAction>('rollback');
  const [failure, setFailure] = useState<string | null>(null);

  const create = async () => {
    setFailure(null);
    try {
      setMade(await make.mutateAsync({ projectKey, id, action }));
      setAsking(null);
    } catch (error) {
      setFailure(errorReason(error) || RAMP_ALERT_FAILED_MESSAGE);
    }
  };

  const removeUrl = async () => {
    setFailure(null);
    try {
      await remove.mutateAsync({ projectKey, id });
    } catch (error) {
      // Removed meanwhile by someone else (404): what was asked is done.
      if (!isApiError(error) || error.status !== 404) {
        setFailure(errorReason(error) || RAMP_ALERT_FAILED_MESSAGE);
        return;
      }
    }
    setAsking(null);
    setAction('rollback');
    notifySuccess(RAMP_ALERT_REMOVED_MESSAGE);
  };

  const ask = (question: 'replace' | 'remove', current: RampAlert) => {
    setFailure(null);
    setAction(current.action);
    setAsking(question);
  };

  let body;
  if (made?.url) {
    body = <CreatedAlertUrl url={made.url} action={made.action} onDone={onClose} />;
  } else if (alert.isError && alert.data === undefined) {
    body = (
      <LoadError
        title="We could not load the alert URL."
        error={alert.error}
        retrying={alert.isFetching}
        onRetry={() => void alert.refetch()}
      />
    );
  } else if (alert.data === undefined) {
    body = (
      <Stack gap="xs" aria-busy="true" aria-label="Loading the alert URL">
        <Skeleton height={16} />
        <Skeleton height={16} width="70%" />
      </Stack>
    );
  } else if (alert.data === null) {
    body = (
      <form
        noValidate
        aria-label="Create alert URL"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <Stack gap="md">
          <Text size="sm">{ALERT_URL_EXPLANATION}</Text>
          <ActionChoice value={action} onChange={setAction} disabled={make.isPending} />
          <FormFailure message={failure} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={make.isPending}>
              Create alert URL
            </Button>
          </Group>
        </Stack>
      </form>
    );
  } else {
    const current = alert.data;
    const pending = make.isPending || remove.isPending;
    body = (
      <Stack gap="md">
        <Text size="sm">{HAS_ALERT_URL}</Text>
        <AlertDetails alert={current} />
        {asking === 'replace' ? (
          <Confirmation
            title="Replace the alert URL?"
            confirmLabel="Replace URL"
            cancelLabel="Keep the old URL"
            pending={make.isPending}
            onConfirm={() => void create()}
            onCancel={() => setAsking(null)}
          >
            <Text size="sm">The old URL stops working at once: give your alerting tools the new one.</Text>
            <ActionChoice value={action} onChange={setAction} disabled={make.isPending} />
          </Confirmation>
        ) : null}
        {asking === 'remove' ? (
          <Confirmation
            title="Remove the alert URL?"
            confirmLabel="Remove URL"
            cancelLabel="Keep it"
            danger
            pending={remove.isPending}
            onConfirm={() => void removeUrl()}
            onCancel={() => setAsking(null)}
          >
            <Text size="sm">Alerts posted to it will no longer stop the ramp.</Text>
          </Confirmation>
        ) : null}
        <FormFailure message={failure} />
        <Group gap="sm">
          {/* While a question is open, its answers are the only buttons that change anything. */}
          {asking === null ? (
            <>
              <Button
                variant="default"
                leftSection={<IconRefresh size={16} aria-hidden="true" />}
                disabled={pending}
                onClick={() => ask('replace', current)}
              >
                Replace URL
              </Button>
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                disabled={pending}
                onClick={() => ask('remove', current)}
              >
                Remove
              </Button>
            </>
          ) : null}
          <Button variant="default" ml="auto" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    // Once the URL shows, a click beside the modal does not lose it.
    <Modal opened onClose={onClose} title="Alert URL" centered size="lg" closeOnClickOutside={!made}>
      <Stack gap="md">
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {summary}
        </Text>
        {body}
      </Stack>
    </Modal>
  );
}

/** The card's Alert URL button and the modal it opens; closing the modal gives the button the focus back. */
export function RampAlertButton({ schedule, summary }: Omit<RampAlertModalProps, 'onClose'>) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        size="xs"
        variant="default"
        leftSection={<IconBellRinging size={14} aria-hidden="true" />}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        Alert URL
      </Button>
      {open ? (
        <RampAlertModal
          schedule={schedule}
          summary={summary}
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      ) : null}
    </>
  );
}
