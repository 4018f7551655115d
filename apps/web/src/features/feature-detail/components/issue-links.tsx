import { Anchor, Badge, Group, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { Feature, JiraIssue } from '@vexil/core';
import { useFlag } from '../../../lib/flags';
import { useSession } from '../../../lib/session';
import { useJiraIssue } from '../../../entities/integrations/api/get-jira-issue';

/** The longest title shown in full beside its key; a longer one is cut, whole in the tooltip. */
const TITLE_MAX_WIDTH = 320;

/**
 * One linked issue: its key and title, linking to the issue's page. A title the feature does not know
 * yet is asked of the connected Jira (flag jira-integration, and a Jira connected: the session says
 * so, and the server would answer 404 otherwise); without Jira, or while it cannot be reached, the
 * bare key shows (a link when its page is known).
 */
function IssueLink({ issue }: { issue: JiraIssue }) {
  const jira = useFlag('jira-integration');
  const connected = useSession().organisation.settings.jiraEnabled;
  const resolved = useJiraIssue(issue.key, jira && connected && issue.title === '');
  const title = issue.title || resolved.data?.title || '';
  const url = issue.url || resolved.data?.url || '';

  if (!url) {
    return (
      <Badge variant="outline" color="gray" tt="none" title={title || undefined}>
        {title ? `${issue.key} · ${title}` : issue.key}
      </Badge>
    );
  }
  return (
    <Anchor
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      size="sm"
      title={title || undefined}
      aria-label={title ? `${issue.key} ${title}` : issue.key}
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 6,
        maxWidth: '100%',
        padding: '2px 8px',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-xl)',
      }}
    >
      <Text span size="sm" fw={600} ff="monospace" style={{ flexShrink: 0 }}>
        {issue.key}
      </Text>
      {title ? (
        <Text span size="sm" c="var(--mantine-color-text)" truncate maw={TITLE_MAX_WIDTH}>
          {title}
        </Text>
      ) : null}
      <IconExternalLink size={14} aria-hidden="true" style={{ flexShrink: 0 }} />
    </Anchor>
  );
}

/** docs/product.md §2 "Header": the feature's issue links, each with its key and title. */
export function IssueLinks({ feature }: { feature: Feature }) {
  const known = new Map(feature.jiraIssues.map((issue) => [issue.key, issue]));
  const keys = feature.jiraIssueKeys.length ? feature.jiraIssueKeys : [...known.keys()];
  if (keys.length === 0) return null;
  return (
    <Group gap={6} aria-label="Issues" role="list" miw={0}>
      {keys.map((key) => (
        <span key={key} role="listitem" style={{ maxWidth: '100%' }}>
          <IssueLink issue={known.get(key) ?? { key, title: '', url: '' }} />
        </span>
      ))}
    </Group>
  );
}
