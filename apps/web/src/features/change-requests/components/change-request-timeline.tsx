import { useState, type KeyboardEvent } from 'react';
import { Button, Group, Stack, Text, Textarea, ThemeIcon, Title } from '@mantine/core';
import {
  IconBan,
  IconCheck,
  IconGitPullRequest,
  IconMessage,
  IconMessageCircle,
  IconMinus,
  IconPlus,
  IconRocket,
  IconSend,
  IconAlertTriangle,
  IconX,
  type TablerIcon,
} from '@tabler/icons-react';
import {
  CHANGE_REQUEST_COMMENT_MAX,
  commentInputSchema,
  type ChangeRequest,
  type ChangeRequestTimelineEntry,
} from '@vexil/core';
import { errorReason } from '../../../components/load-error';
import { notifyError } from '../../../lib/notify';
import { useCommentChangeRequest } from '../../../entities/change-requests/api/change-request-actions';
import { RelativeTime } from './change-request-format';

type Look = { icon: TablerIcon; color: string; says: string };

/** The icon, colour and sentence of an entry, after the name of who did it. */
function lookOf(entry: ChangeRequestTimelineEntry): Look {
  switch (entry.kind) {
    case 'created':
      return { icon: IconGitPullRequest, color: 'gray', says: 'created the change request' };
    case 'change-added':
      return { icon: IconPlus, color: 'blue', says: 'added a change' };
    case 'change-removed':
      return { icon: IconMinus, color: 'gray', says: 'removed a change' };
    case 'submitted':
      return { icon: IconSend, color: 'blue', says: 'submitted it for review' };
    case 'review':
      if (entry.decision === 'approve') return { icon: IconCheck, color: 'teal', says: 'approved' };
      if (entry.decision === 'reject') return { icon: IconX, color: 'red', says: 'rejected it' };
      return { icon: IconMessageCircle, color: 'yellow', says: 'requested changes' };
    case 'comment':
      return { icon: IconMessage, color: 'gray', says: 'commented' };
    case 'applied':
      return { icon: IconRocket, color: 'green', says: 'applied it' };
    case 'suspended':
      return {
        icon: IconAlertTriangle,
        color: 'orange',
        says: entry.by ? 'tried to apply it: it was suspended' : 'It was suspended',
      };
    case 'cancelled':
      return { icon: IconBan, color: 'gray', says: 'cancelled it' };
  }
}

function Entry({ entry, round }: { entry: ChangeRequestTimelineEntry; round: number }) {
  const { icon: Icon, color, says } = lookOf(entry);
  // A system entry (a suspension found at apply) has no one to name.
  const sentence = entry.by ? `${entry.by.name} ${says}` : says;
  const earlier = entry.kind === 'review' && entry.round < round;
  return (
    <Group component="li" gap="sm" wrap="nowrap" align="flex-start">
      <ThemeIcon size={28} radius="xl" variant="light" color={color} aria-hidden="true">
        <Icon size={16} />
      </ThemeIcon>
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <Group gap={6} wrap="wrap">
          <Text size="sm" fw={500}>
            {sentence}
          </Text>
          {earlier ? (
            <Text size="xs" c="dimmed">
              (before the last change)
            </Text>
          ) : null}
          <RelativeTime date={entry.at} size="xs" />
        </Group>
        {entry.text ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {entry.text}
          </Text>
        ) : null}
      </Stack>
    </Group>
  );
}

/** The comment box: Comment, or Ctrl+Enter (⌘+Enter on a Mac), sends it. */
function CommentBox({ request }: { request: ChangeRequest }) {
  const comment = useCommentChangeRequest();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  const send = async () => {
    if (comment.isPending) return;
    const parsed = commentInputSchema.safeParse({ text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Write a comment first.');
      return;
    }
    setError(null);
    try {
      await comment.mutateAsync({ projectKey: request.projectKey, id: request.id, comment: parsed.data });
    } catch (failure) {
      notifyError(errorReason(failure) || 'The comment was not sent.');
      return;
    }
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <Stack gap="xs">
      <Textarea
        label="Comment"
        description="Ctrl+Enter (⌘+Enter on a Mac) sends it."
        placeholder="Ask a question or explain a decision"
        autosize
        minRows={2}
        maxRows={8}
        maxLength={CHANGE_REQUEST_COMMENT_MAX}
        value={text}
        error={error}
        onChange={(event) => {
          setText(event.currentTarget.value);
          if (error) setError(null);
        }}
        onKeyDown={onKeyDown}
      />
      <Group justify="flex-end">
        <Button variant="default" loading={comment.isPending} onClick={() => void send()}>
          Comment
        </Button>
      </Group>
    </Stack>
  );
}

/** What happened to the request, oldest first, with when; then the comment box. */
export function ChangeRequestTimeline({ request }: { request: ChangeRequest }) {
  return (
    <Stack gap="md" component="section" aria-labelledby="change-request-timeline">
      <Title order={2} fz="lg" id="change-request-timeline">
        Timeline
      </Title>
      <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Timeline">
        {request.timeline.map((entry) => (
          <Entry key={entry.id} entry={entry} round={request.round} />
        ))}
      </Stack>
      <CommentBox request={request} />
    </Stack>
  );
}
