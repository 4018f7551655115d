// Over 400 lines on purpose: one form for a one-off and a recurring change, whose fields (time, cron,
// time zone, what to do, change request) share one state and one check against core's schema.
import { useId, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  cronSchema,
  isProductionEnvironment,
  MAX_LENGTH,
  SCHEDULE_MESSAGES,
  scheduleInputSchema,
  timeZoneSchema,
  type Feature,
  type FeatureControl,
  type ProjectSummary,
  type ScheduleInput,
} from '@vexil/core';
import { applyFieldErrors, fieldOnlyFailure, FormFailure } from '../../../components/form-failure';
import { errorReason } from '../../../components/load-error';
import { isApiError } from '../../../lib/api-client';
import { changeRequestsQueryOptions } from '../../../entities/change-requests/api/get-change-requests';
import type { EnvironmentProtection } from '../../../entities/change-requests/hooks/use-environment-protection';
import { useCreateSchedule } from '../../../entities/schedules/api/create-schedule';
import { throughRequestMessage, useScheduleThroughRequest } from './schedule-change-request';
import { ScheduleFormActions } from './schedule-form-actions';
import { notifySuccess } from '../../../lib/notify';
import {
  browserTimeZone,
  CRON_PRESETS,
  cronText,
  dailyCron,
  fromLocalInput,
  scheduleSummary,
  timeZones,
  toLocalInput,
} from '../../../lib/schedule-labels';

/** The form's fields, as the server's field errors name them (their first segment). */
const FIELDS = ['at', 'change', 'cron', 'timeZone', 'until', 'catchUp', 'comment'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

/** What the schedule does: switch the control on or off, or apply an approved change request. */
type Action = 'on' | 'off' | 'request';

export const PICK_DATE_MESSAGE = 'Choose a date and time.';
export const PICK_REQUEST_MESSAGE = 'Choose an approved change request.';

/** The next full hour, where the date field starts. */
function nextHour(): string {
  const date = new Date();
  date.setHours(date.getHours() + 1, 0, 0, 0);
  return toLocalInput(date);
}

export type ScheduleChangeModalProps = {
  feature: Pick<Feature, 'key' | 'name' | 'projectKey'>;
  control: Pick<FeatureControl, 'enabled'>;
  environment: ProjectSummary['environments'][number];
  protection: EnvironmentProtection;
  onClose: () => void;
};

/**
 * "Schedule change" (docs/adr/0025-scheduler.md): once, at a date and time in the browser's time
 * zone, or on a cron expression in a chosen time zone (with presets, an optional end and what to do
 * about occurrences missed while Vexil was not running), turn the feature on or off here. In an
 * environment protected by change requests, once can also apply an approved change request. Checked
 * with core's schemas as the server checks them; a refusal keeps the form as it is and shows the
 * server's field errors under their fields.
 */
export function ScheduleChangeModal({
  feature,
  control,
  environment,
  protection,
  onClose,
}: ScheduleChangeModalProps) {
  const create = useCreateSchedule();
  const through = useScheduleThroughRequest({
    projectKey: feature.projectKey,
    featureName: feature.name,
    environmentName: environment.name,
  });
  const kindLabel = useId();
  const zone = browserTimeZone();
  const [zones] = useState(timeZones);
  const [kind, setKind] = useState<'once' | 'recurring'>('once');
  const [action, setAction] = useState<Action>(
    protection.throughRequest ? 'request' : control.enabled ? 'off' : 'on',
  );
  const [at, setAt] = useState(nextHour);
  const [changeRequestId, setChangeRequestId] = useState<string | null>(null);
  const [cron, setCron] = useState(CRON_PRESETS[0]!.cron);
  const [dailyTime, setDailyTime] = useState('09:00');
  const [timeZone, setTimeZone] = useState<string | null>(zone);
  const [until, setUntil] = useState('');
  const [catchUp, setCatchUp] = useState<'once' | 'skip'>('once');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const offersRequest = kind === 'once' && protection.required;
  const requests = useQuery({
    ...changeRequestsQueryOptions({
      projectKey: feature.projectKey,
      environmentKey: environment.key,
      state: 'approved',
      page: 0,
    }),
    enabled: offersRequest && action === 'request',
  });

  /** Clears a field's error once it is edited. */
  const edited = (...fields: Field[]) =>
    setErrors((current) => {
      if (!fields.some((field) => current[field])) return current;
      const next = { ...current };
      for (const field of fields) delete next[field];
      return next;
    });

  /** The body to send, or the errors that keep it from being sent. */
  const build = (): { input: ScheduleInput } | { errors: Errors } => {
    const found: Errors = {};
    const target = {
      featureKey: feature.key,
      environmentKey: environment.key,
      ...(comment.trim() ? { comment: comment.trim() } : {}),
    };
    let input: ScheduleInput;
    if (kind === 'once') {
      const when = fromLocalInput(at);
      if (!when) found.at = PICK_DATE_MESSAGE;
      // As the server does, a minute's grace: "now" typed a moment ago is still now.
      else if (Date.parse(when) < Date.now() - 60_000) found.at = SCHEDULE_MESSAGES.atBeforeNow;
      if (action === 'request' && !changeRequestId) found.change = PICK_REQUEST_MESSAGE;
      const change =
        action === 'request' ? { changeRequestId: changeRequestId ?? '' } : { enabled: action === 'on' };
      input = { kind: 'once', ...target, at: when ?? '', change };
    } else {
      const end = fromLocalInput(until);
      const cronIssue = cronSchema.safeParse(cron).error?.issues[0]?.message;
      if (cronIssue) found.cron = cronIssue;
      if (!timeZoneSchema.safeParse(timeZone).success) found.timeZone = SCHEDULE_MESSAGES.timeZone;
      if (until.trim() !== '' && (!end || Date.parse(end) <= Date.now()))
        found.until = SCHEDULE_MESSAGES.untilBeforeNow;
      input = {
        kind: 'recurring',
        ...target,
        cron: cron.trim(),
        timeZone: timeZone ?? '',
        change: { enabled: action === 'on' },
        ...(end ? { until: end } : {}),
        catchUp,
      };
    }
    // What core checks beyond that (the server checks the same), on the fields it names.
    for (const issue of scheduleInputSchema.safeParse(input).error?.issues ?? []) {
      const field = FIELDS.find((name) => name === issue.path[0]);
      if (field && !found[field]) found[field] = issue.message;
    }
    return Object.keys(found).length > 0 ? { errors: found } : { input };
  };

  const submit = async () => {
    setFailure(null);
    const built = build();
    if ('errors' in built) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    let created;
    try {
      created = await create.mutateAsync({ projectKey: feature.projectKey, schedule: built.input });
    } catch (error) {
      if (through.caught(error)) {
        setFailure(throughRequestMessage(error));
        return;
      }
      // Field errors name paths (`change.changeRequestId`): each goes under the field it starts with.
      const mapping: Record<string, Field> = {};
      for (const { field } of isApiError(error) ? error.errors : []) {
        const head = FIELDS.find((name) => field === name || field.startsWith(`${name}.`));
        if (head) mapping[field] = head;
      }
      const saidByFields = applyFieldErrors(error, mapping, (field, { message }) =>
        setErrors((current) => ({ ...current, [field]: message })),
      );
      setFailure(fieldOnlyFailure(error, saidByFields));
      return;
    }
    notifySuccess(`Scheduled: ${scheduleSummary(created)}.`);
    onClose();
  };

  /** The change the environment refused, put into a change request instead. */
  const addToRequest = async () => {
    setFailure(null);
    const built = build();
    if ('errors' in built) {
      setErrors(built.errors);
      return;
    }
    try {
      await through.add(built.input);
    } catch (error) {
      setFailure(errorReason(error) || 'The change was not added to a change request. Please try again.');
      return;
    }
    onClose();
  };

  const chooseKind = (value: string) => {
    const next = value === 'recurring' ? 'recurring' : 'once';
    setKind(next);
    // A recurring schedule switches the feature; a change request is applied once.
    if (next === 'recurring' && action === 'request') setAction(control.enabled ? 'off' : 'on');
    setErrors({});
    setFailure(null);
  };

  const described = cronText(cron);
  const requestOptions = (requests.data?.content ?? []).map((request) => ({
    value: request.id,
    label: request.title,
  }));

  return (
    <Modal opened onClose={onClose} title="Schedule change" centered size="lg">
      <form
        noValidate
        aria-label="Schedule change"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Vexil makes this change to {feature.name} in {environment.name} on its own, when it falls due.
          </Text>
          <FormFailure message={failure} />
          {isProductionEnvironment(environment) ? (
            <Alert color="orange" variant="light" title="Production environment">
              {environment.name} is a production environment: the change reaches live users when it is made.
            </Alert>
          ) : null}
          <div>
            <Text id={kindLabel} size="sm" fw={500} mb={4}>
              When
            </Text>
            <SegmentedControl
              aria-labelledby={kindLabel}
              value={kind}
              onChange={chooseKind}
              data={[
                { value: 'once', label: 'Once' },
                { value: 'recurring', label: 'Recurring' },
              ]}
            />
          </div>

          {kind === 'once' ? (
            <TextInput
              type="datetime-local"
              label="Date and time"
              description={`In your time zone, ${zone}.`}
              required
              value={at}
              onChange={(event) => {
                setAt(event.currentTarget.value);
                edited('at');
              }}
              error={errors.at}
            />
          ) : (
            <>
              <Stack gap={6}>
                <TextInput
                  label="Cron expression"
                  description={
                    described
                      ? `Runs ${described}, in the time zone below.`
                      : 'Five fields: minute, hour, day of month, month and day of week.'
                  }
                  required
                  value={cron}
                  onChange={(event) => {
                    setCron(event.currentTarget.value);
                    edited('cron');
                  }}
                  error={errors.cron}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                />
                <Group gap="xs" role="group" aria-label="Presets">
                  {CRON_PRESETS.map((preset) => (
                    <Button
                      key={preset.cron}
                      size="compact-sm"
                      variant={cron.trim() === preset.cron ? 'filled' : 'light'}
                      aria-pressed={cron.trim() === preset.cron}
                      onClick={() => {
                        setCron(preset.cron);
                        edited('cron');
                      }}
                    >
                      {preset.label}
                    </Button>
                  ))}
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant={cron.trim() === dailyCron(dailyTime) ? 'filled' : 'light'}
                      aria-pressed={cron.trim() === dailyCron(dailyTime)}
                      onClick={() => {
                        setCron(dailyCron(dailyTime));
                        edited('cron');
                      }}
                    >
                      Every day at {dailyTime}
                    </Button>
                    <TextInput
                      type="time"
                      size="xs"
                      aria-label="Time of day"
                      value={dailyTime}
                      onChange={(event) => setDailyTime(event.currentTarget.value || '09:00')}
                      w={110}
                    />
                  </Group>
                </Group>
              </Stack>
              <Select
                label="Time zone"
                description="The cron expression’s times are in this time zone."
                required
                searchable
                allowDeselect={false}
                limit={100}
                nothingFoundMessage="No such time zone"
                data={zones}
                value={timeZone}
                onChange={(value) => {
                  setTimeZone(value);
                  edited('timeZone');
                }}
                error={errors.timeZone}
              />
            </>
          )}

          <Radio.Group
            label="Change"
            value={action}
            onChange={(value) => {
              setAction(value as Action);
              edited('change');
            }}
            error={action === 'request' ? undefined : errors.change}
          >
            <Stack gap="xs" mt={6}>
              <Radio value="on" label="Turn on" />
              <Radio value="off" label="Turn off" />
              {offersRequest ? <Radio value="request" label="Apply an approved change request" /> : null}
            </Stack>
          </Radio.Group>
          {offersRequest && protection.throughRequest && action !== 'request' ? (
            <Text size="sm" c="dimmed">
              Changes to {environment.name} go through change requests: schedule an approved one instead.
            </Text>
          ) : null}
          {offersRequest && action === 'request' ? (
            <Stack gap={4}>
              <Select
                label="Change request"
                placeholder={requests.isPending ? 'Loading…' : 'Choose an approved change request'}
                required
                searchable
                disabled={requests.isPending || requests.isError}
                data={requestOptions}
                value={changeRequestId}
                onChange={(value) => {
                  setChangeRequestId(value);
                  edited('change');
                }}
                nothingFoundMessage="No match"
                error={errors.change}
              />
              {requests.isError ? (
                <Group gap="xs">
                  <Text size="sm" c="red">
                    {errorReason(requests.error) || 'The change requests could not be loaded.'}
                  </Text>
                  <Button size="compact-xs" variant="default" onClick={() => void requests.refetch()}>
                    Retry
                  </Button>
                </Group>
              ) : requests.data && requestOptions.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No change request in {environment.name} is approved yet.
                </Text>
              ) : null}
            </Stack>
          ) : null}

          {kind === 'recurring' ? (
            <>
              <TextInput
                type="datetime-local"
                label="Until"
                description={`Optional: no occurrence after this, in your time zone (${zone}).`}
                value={until}
                onChange={(event) => {
                  setUntil(event.currentTarget.value);
                  edited('until');
                }}
                error={errors.until}
              />
              <Radio.Group
                label="Missed occurrences"
                description="When Vexil was not running at an occurrence."
                value={catchUp}
                onChange={(value) => setCatchUp(value === 'skip' ? 'skip' : 'once')}
                error={errors.catchUp}
              >
                <Group gap="md" mt={6}>
                  <Radio value="once" label="Run once" />
                  <Radio value="skip" label="Skip" />
                </Group>
              </Radio.Group>
            </>
          ) : null}

          <TextInput
            label="Comment"
            description="Optional: why, kept with each version the schedule writes."
            maxLength={MAX_LENGTH.comment}
            value={comment}
            onChange={(event) => {
              setComment(event.currentTarget.value);
              edited('comment');
            }}
            error={errors.comment}
          />
          <ScheduleFormActions
            label={'Schedule'}
            submitting={create.isPending}
            throughRequest={{
              offered: through.refusal !== null,
              pending: through.isPending,
              add: () => void addToRequest(),
            }}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
