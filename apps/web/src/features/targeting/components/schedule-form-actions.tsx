import { Button, Group } from '@mantine/core';

/**
 * The buttons under the Schedule change and Ramp forms: Cancel, then the form's submit (`label`) or,
 * once the environment refused the schedule for want of a change request, Add to change request.
 */
export function ScheduleFormActions(props: {
  label: string;
  submitting: boolean;
  throughRequest: { offered: boolean; pending: boolean; add: () => void };
  onCancel: () => void;
}) {
  const { label, submitting, throughRequest, onCancel } = props;
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      {throughRequest.offered ? (
        <Button loading={throughRequest.pending} onClick={throughRequest.add}>
          Add to change request
        </Button>
      ) : (
        <Button type="submit" loading={submitting}>
          {label}
        </Button>
      )}
    </Group>
  );
}
