import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { z } from 'zod';
import { closeModal, showModal } from '../../../lib/modals';
import { notifySuccess } from '../../../lib/notify';
import {
  normaliseSegmentKey,
  segmentForm,
  type Principal,
  type Segment,
  type SegmentForm as SegmentFormValues,
} from '@vexil/core';
import { hasErrorCode } from '../../../lib/api-client';
import { useCreateSegment } from '../../../entities/segments/api/create-segment';
import { useUpdateSegment } from '../../../entities/segments/api/update-segment';
import { useReloadSegment } from '../../../entities/segments/api/get-segments';
import {
  applyFieldErrors,
  formFailureMessage,
  ReloadAction,
  useStaleReload,
} from '../../../components/form-failure';
import { ChangeRequestOffer } from '../../../components/change-request-offer';
import { useSegmentChangeRequest, type SegmentEnvironment } from './segment-change-request';

/** The server names fields as in its body; the form as in docs/product.md §3. */
const FORM_FIELD = {
  key: 'segmentKey',
  name: 'segmentName',
  description: 'segmentDescription',
} as const satisfies Record<string, keyof SegmentFormValues>;

export const SEGMENT_SAVED_MESSAGE = 'Segment saved.';
/** When Reload finds the segment gone. */
export const SEGMENT_GONE_MESSAGE = 'This segment no longer exists.';

type Failure = { message: string; stale: boolean };

function valuesOf(segment: Segment | undefined): z.input<typeof segmentForm> {
  return {
    segmentKey: segment?.key ?? '',
    segmentName: segment?.name ?? '',
    segmentDescription: segment?.description ?? '',
  };
}

export type SegmentFormProps = {
  projectKey: string;
  /** The environment the segment is in, with what decides whether it asks for change requests. */
  environment: SegmentEnvironment;
  /** The signed-in user (the modal is rendered outside the session). */
  user: Principal;
  /** The segment to edit; without it the form creates one in the environment. */
  segment?: Segment;
};

/**
 * docs/product.md §2 "Create Segment modal", §5 "Segment", §8 "Segment save": Key (follows the name until edited,
 * cleaned like a feature key; read-only when editing), Name (required) and Description. The server's
 * errors show in the form; success says "Segment saved." and closes the modal. An edit sends the version
 * of the segment it started from: when someone saved the segment since, the server refuses
 * (409 `stale_write`) and the form offers Reload, which loads the stored segment in place of the edit.
 * In an environment that asks for change requests, an edit goes into one instead: Save reads "Add to
 * change request" where the policy says so, and an update refused with 409 `change_request_required`
 * keeps the edit and offers it (segment-change-request.ts). The modal closes once it is added.
 *
 * Rendered in the modal stack, outside the session: everything it needs comes through props.
 */
export function SegmentForm({ projectKey, environment, user, segment }: SegmentFormProps) {
  const environmentKey = environment.key;
  const create = useCreateSegment();
  const update = useUpdateSegment();
  const reloadSegment = useReloadSegment();
  const [keyEdited, setKeyEdited] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const stale = useStaleReload();
  // The segment as the edit started from it: its version goes with the save.
  const [basis, setBasis] = useState(segment);
  const editing = segment !== undefined;
  const changeRequest = useSegmentChangeRequest(user, projectKey, environment, basis);
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<z.input<typeof segmentForm>, unknown, SegmentFormValues>({
    resolver: zodResolver(segmentForm),
    defaultValues: valuesOf(segment),
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const body = {
      projectKey,
      environmentKey,
      name: values.segmentName,
      description: values.segmentDescription,
    };
    try {
      if (basis) {
        const edit = { ...body, id: basis.id, key: basis.key, lastModifiedDate: basis.lastModifiedDate };
        if (changeRequest.throughRequest) {
          await changeRequest.add(edit);
          closeModal();
          return;
        }
        await update.mutateAsync(edit);
      } else await create.mutateAsync({ ...body, key: values.segmentKey });
    } catch (error) {
      // Refused for want of a change request: the edit stays in the form, and the way on is offered.
      if (changeRequest.refused(error)) return;
      applyFieldErrors(error, FORM_FIELD, setError);
      setFailure({ message: formFailureMessage(error), stale: hasErrorCode(error, 'stale_write') });
      return;
    }
    notifySuccess(SEGMENT_SAVED_MESSAGE);
    closeModal();
  });

  // After a stale save: the stored segment, loaded again, replaces the edit.
  const reload = (id: string) =>
    stale.reload(
      () => reloadSegment({ projectKey, environmentKey }, id),
      (fresh) => {
        if (!fresh) {
          setFailure({ message: SEGMENT_GONE_MESSAGE, stale: false });
          return;
        }
        setBasis(fresh);
        setFailure(null);
        reset(valuesOf(fresh));
      },
    );

  return (
    <form onSubmit={onSubmit} noValidate aria-label={editing ? 'Edit Segment' : 'Create Segment'}>
      <Stack gap="md">
        {changeRequest.refusal ? <ChangeRequestOffer reason={changeRequest.refusal} /> : null}
        {failure ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} aria-hidden="true" />}
            role="alert"
          >
            {failure.message}
            {failure.stale && basis ? (
              <ReloadAction reloading={stale.reloading} onReload={() => void reload(basis.id)} />
            ) : null}
          </Alert>
        ) : null}
        <Controller
          control={control}
          name="segmentName"
          render={({ field, fieldState }) => (
            <TextInput
              label="Name"
              placeholder="Beta testers"
              data-autofocus
              required
              error={fieldState.error?.message}
              {...field}
              onChange={(event) => {
                const name = event.currentTarget.value;
                field.onChange(name);
                if (!editing && !keyEdited) {
                  setValue('segmentKey', normaliseSegmentKey(name), { shouldValidate: isSubmitted });
                }
              }}
            />
          )}
        />
        <Controller
          control={control}
          name="segmentKey"
          render={({ field, fieldState }) => (
            <TextInput
              label="Key"
              description={
                editing
                  ? 'The key cannot be changed: targeting rules refer to it.'
                  : 'What targeting rules refer to. It follows the name until you edit it.'
              }
              required={!editing}
              readOnly={editing}
              error={fieldState.error?.message}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              {...field}
              onChange={(event) => {
                const key = event.currentTarget.value;
                // Emptying the key hands it back to the name.
                setKeyEdited(key !== '');
                field.onChange(key);
              }}
              // Cleaned on leaving the field: cleaning as typed would swallow a dash before the next word.
              onBlur={() => {
                if (!editing) field.onChange(normaliseSegmentKey(field.value ?? ''));
                field.onBlur();
              }}
            />
          )}
        />
        <Textarea
          label="Description"
          placeholder="Who is in the segment, and why"
          rows={3}
          error={errors.segmentDescription?.message}
          {...register('segmentDescription')}
        />
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {changeRequest.throughRequest ? 'Add to change request' : 'Save segment'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the Create Segment (or, given a segment, Edit Segment) modal on top of the modal stack. */
export function openSegmentForm(props: SegmentFormProps): string {
  return showModal({
    title: props.segment ? 'Edit Segment' : 'Create Segment',
    children: <SegmentForm {...props} />,
  });
}
