import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import {
  IconArrowBackUp,
  IconBan,
  IconCheck,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlayerTrackNext,
  type TablerIcon,
} from '@tabler/icons-react';
import { FINAL_SCHEDULE_STATES, type Schedule, type ScheduleAction } from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { errorReason } from '../../../components/load-error';
import { useScheduleAction } from '../../../entities/schedules/api/schedule-actions';
import { confirm } from '../../../lib/modals';
import { notifyError, notifySuccess, notifyWarning } from '../../../lib/notify';
import { rampCoverage } from '../../../lib/schedule-labels';

export const SCHEDULE_ACTION_FAILED_MESSAGE = 'The schedule was not updated.';

const BUTTONS: Readonly<
  Record<
    ScheduleAction,
    { label: string; icon: TablerIcon; variant: 'filled' | 'light' | 'default'; color?: string }
  >
> = {
  approve: { label: 'Approve', icon: IconCheck, variant: 'filled', color: 'teal' },
  pause: { label: 'Pause', icon: IconPlayerPause, variant: 'default' },
  resume: { label: 'Resume', icon: IconPlayerPlay, variant: 'filled' },
  advance: { label: 'Advance', icon: IconPlayerTrackNext, variant: 'default' },
  rollback: { label: 'Roll back', icon: IconArrowBackUp, variant: 'light', color: 'red' },
  cancel: { label: 'Cancel', icon: IconBan, variant: 'default' },
};

/**
 * The actions that mean something for a schedule now, in the order they are offered. A ramp running
 * can be paused, advanced, rolled back or cancelled, and approved while it waits for approval; a paused
 * one resumed; a suspended one only rolled back or cancelled (what it writes was changed by someone
 * else); one waiting for its start only cancelled. A one-off or recurring schedule pauses, resumes
 * and cancels. A finished schedule has none.
 */
export function scheduleActionsFor(
  schedule: Pick<Schedule, 'kind' | 'state' | 'awaitingApproval'>,
): ScheduleAction[] {
  const { kind, state, awaitingApproval } = schedule;
  if (FINAL_SCHEDULE_STATES.includes(state)) return [];
  if (kind === 'ramp') {
    switch (state) {
      case 'ready':
        return ['pause', 'cancel'];
      case 'running':
        return [
          ...(awaitingApproval ? (['approve'] as const) : []),
          'pause',
          'advance',
          'rollback',
          'cancel',
        ];
      case 'paused':
        return ['resume', 'rollback', 'cancel'];
      case 'suspended':
        // Resume goes on from what is live now, the change that suspended it included.
        return ['resume', 'rollback', 'cancel'];
      default:
        return [];
    }
  }
  return state === 'paused' || state === 'suspended' ? ['resume', 'cancel'] : ['pause', 'cancel'];
}

/** What the toast says once the server answered an action with the schedule as it now stands. */
function outcome(action: ScheduleAction, schedule: Schedule): string {
  if (schedule.state === 'completed' && schedule.kind === 'ramp') return 'The ramp is complete.';
  const coverage = rampCoverage(schedule);
  switch (action) {
    case 'pause':
      return 'Schedule paused.';
    case 'resume':
      return 'Schedule resumed.';
    case 'advance':
      return coverage === null ? 'Ramp advanced.' : `Ramp advanced to ${coverage} %.`;
    case 'approve':
      return 'Approved: the ramp goes on.';
    case 'rollback':
      return 'Ramp rolled back: the rule is as it was before the ramp.';
    case 'cancel':
      return 'Schedule cancelled.';
  }
}

export type ScheduleActionsProps = {
  schedule: Schedule;
  /** The rule a ramp changes, as people call it ("Rule 2", "Everyone else"), for the confirmations. */
  ruleName: string;
  /** Why the user may not act on this environment's schedules; null when they may. */
  denial: string | null;
};

/**
 * The buttons of one schedule (scheduleActionsFor): each calls its action, Roll back and Cancel once
 * confirmed. A refusal is a notification with the server's reason; the lists are asked again, since
 * the schedule has likely moved on.
 */
export function ScheduleActions({ schedule, ruleName, denial }: ScheduleActionsProps) {
  const act = useScheduleAction();
  const [pressed, setPressed] = useState<ScheduleAction | null>(null);
  const actions = scheduleActionsFor(schedule);
  if (actions.length === 0) return null;

  const run = async (action: ScheduleAction) => {
    setPressed(action);
    let answer: Schedule;
    try {
      answer = await act.mutateAsync({ projectKey: schedule.projectKey, id: schedule.id, action });
    } catch (error) {
      notifyError(errorReason(error) || SCHEDULE_ACTION_FAILED_MESSAGE);
      return;
    }
    if (answer.state === 'suspended' && action !== 'rollback') {
      notifyWarning(`The schedule was suspended. ${answer.reason ?? ''}`.trim(), { persistent: true });
    } else notifySuccess(outcome(action, answer));
  };

  const press = async (action: ScheduleAction) => {
    if (action === 'rollback') {
      const confirmed = await confirm({
        title: 'Roll back the ramp',
        message: `Put ${ruleName} back exactly as it was before the ramp? The users the ramp gave the variant to get what they got before.`,
        confirmLabel: 'Roll back',
        cancelLabel: 'Keep the ramp',
        danger: true,
      });
      if (!confirmed) return;
    }
    if (action === 'cancel') {
      const confirmed = await confirm({
        title: 'Cancel schedule',
        message:
          schedule.kind === 'ramp'
            ? `Cancel this ramp? It stops where it is: ${ruleName} keeps the splits it has now.`
            : 'Cancel this schedule? It makes no more changes; what it changed already stays.',
        confirmLabel: 'Cancel schedule',
        cancelLabel: 'Keep it',
        danger: true,
      });
      if (!confirmed) return;
    }
    await run(action);
  };

  return (
    <Group gap="xs" role="group" aria-label="Schedule actions">
      {actions.map((action) => {
        const { label, icon: Icon, variant, color } = BUTTONS[action];
        return (
          <DisabledReason key={action} denial={denial}>
            <Button
              size="xs"
              variant={variant}
              color={color}
              leftSection={<Icon size={14} aria-hidden="true" />}
              disabled={denial !== null || act.isPending}
              loading={act.isPending && pressed === action}
              onClick={() => void press(action)}
            >
              {label}
            </Button>
          </DisabledReason>
        );
      })}
    </Group>
  );
}
