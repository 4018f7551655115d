import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { z } from 'zod';
import { CHANGE_REQUEST_COMMENT_MAX, text } from '@vexil/core';
import { closeModal, showModal } from '../../../lib/modals';

/** The decisions that ask the reviewer to say why. */
export type ExplainedDecision = 'request-changes' | 'reject';

const COPY: Readonly<
  Record<ExplainedDecision, { title: string; label: string; required: string; submit: string }>
> = {
  'request-changes': {
    title: 'Request changes',
    label: 'What should change?',
    required: 'Say what should change, for the author.',
    submit: 'Request changes',
  },
  reject: {
    title: 'Reject change request',
    label: 'Why is it rejected?',
    required: 'Say why, for the author.',
    submit: 'Reject',
  },
};

/**
 * The comment a request for changes or a rejection carries: required here, so that the author learns
 * what to do. `onSubmit` answers whether the review was recorded; the modal then closes.
 */
export function ReviewCommentForm({
  decision,
  onSubmit,
}: {
  decision: ExplainedDecision;
  onSubmit: (comment: string) => Promise<boolean>;
}) {
  const copy = COPY[decision];
  const [schema] = useState(() =>
    z.object({ comment: text({ max: CHANGE_REQUEST_COMMENT_MAX, required: copy.required }) }),
  );
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { comment: '' },
  });
  const submit = handleSubmit(async ({ comment }) => {
    if (await onSubmit(comment)) closeModal();
  });
  return (
    <form onSubmit={submit} noValidate aria-label={copy.title}>
      <Stack gap="md">
        <Textarea
          label={copy.label}
          required
          data-autofocus
          rows={3}
          autosize
          maxRows={8}
          maxLength={CHANGE_REQUEST_COMMENT_MAX}
          error={errors.comment?.message}
          {...register('comment')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => closeModal()}>
            Cancel
          </Button>
          <Button type="submit" color={decision === 'reject' ? 'red' : undefined} loading={isSubmitting}>
            {copy.submit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opens the comment modal of a request for changes or a rejection. */
export function openReviewCommentForm(
  decision: ExplainedDecision,
  onSubmit: (comment: string) => Promise<boolean>,
): string {
  return showModal({
    title: COPY[decision].title,
    children: <ReviewCommentForm decision={decision} onSubmit={onSubmit} />,
  });
}
