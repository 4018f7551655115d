/**
 * What the audit log says about integrations (Slack, Jira) and a project's outgoing webhooks: each
 * kind of entry (core's `IntegrationAuditEntry`) rendered to its title and markdown description, in
 * one place. User text is escaped; channels, addresses, keys and events are shown as code. No token
 * or secret is ever written.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS } from '@vexil/core/audit-entries';
import type { AuditWebhook, IntegrationAuditEntry } from '@vexil/core/audit-entries-organisation';
import type { AuditEntry } from '../audit/audit.service';

/** What is posted to Slack, as a markdown list. */
function describeFilters(filters: {
  projectKeys: string[];
  environmentKeys: string[];
  events: string[];
}): string {
  const list = (values: string[], all: string) =>
    values.length ? values.map((value) => markdownCode(value)).join(', ') : all;
  return [
    `- Projects: ${list(filters.projectKeys, 'all')}`,
    `- Environments: ${list(filters.environmentKeys, 'all')}`,
    `- Events: ${list(filters.events, 'all')}`,
  ].join('\n');
}

/** A webhook's settings, as a markdown list. */
function describeWebhook(webhook: AuditWebhook): string {
  return [
    `- URL: ${markdownCode(webhook.url)}`,
    `- Events: ${webhook.events.map((event) => markdownCode(event)).join(', ')}`,
    `- Environments: ${webhook.environmentKeys.length ? webhook.environmentKeys.map((key) => markdownCode(key)).join(', ') : 'all'}`,
    `- ${webhook.enabled ? 'Enabled' : 'Turned off'}`,
  ].join('\n');
}

/** A webhook's settings as a list nested under another. */
function nested(webhook: AuditWebhook): string {
  return describeWebhook(webhook).replaceAll('- ', '  - ');
}

function text(entry: IntegrationAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  const by = escapeMarkdown(entry.by);
  switch (entry.kind) {
    case 'integration.slack_added':
      return {
        title: 'Slack integration added',
        description: `${by} added Slack: changes are posted to ${markdownCode(entry.channel)}${entry.teamName ? ` of ${markdownCode(entry.teamName)}` : ''}.`,
      };
    case 'integration.slack_filters_changed':
      return {
        title: 'Slack integration filters changed',
        description: `${by} changed what is posted to ${markdownCode(entry.channel)} on Slack.\n\n${describeFilters(entry.filters)}`,
      };
    case 'integration.jira_connected':
      return {
        title: 'Jira connected',
        description: `${by} connected Jira at ${markdownCode(entry.baseUrl)} as ${markdownCode(entry.email)}.`,
      };
    case 'integration.jira_updated':
      return {
        title: 'Jira connection changed',
        description: `${by} changed the Jira connection: ${markdownCode(entry.baseUrl)} as ${markdownCode(entry.email)}.${entry.tokenReplaced ? ' The API token was replaced.' : ''}`,
      };
    case 'integration.removed': {
      const { integration } = entry;
      const what =
        integration.type === 'slack'
          ? `Slack (${markdownCode(integration.channel)})`
          : `Jira (${markdownCode(integration.baseUrl)})`;
      return {
        title: `${integration.type === 'slack' ? 'Slack' : 'Jira'} integration removed`,
        description: `${by} removed the integration with ${what}.`,
      };
    }
    case 'webhook.created':
      return {
        title: `Webhook added to ${entry.project.name}`,
        description: `${by} added a webhook to **${escapeMarkdown(entry.project.name)}**.\n\n${describeWebhook(entry.webhook)}`,
      };
    case 'webhook.updated':
      return {
        title: `Webhook of ${entry.project.name} changed`,
        description: `${by} changed a webhook of **${escapeMarkdown(entry.project.name)}**.\n\n- before:\n${nested(entry.before)}\n- after:\n${nested(entry.after)}`,
      };
    case 'webhook.deleted':
      return {
        title: `Webhook removed from ${entry.project.name}`,
        description: `${by} removed a webhook from **${escapeMarkdown(entry.project.name)}**.\n\n${describeWebhook(entry.webhook)}`,
      };
    case 'webhook.secret_rotated':
      return {
        title: `Webhook secret of ${entry.project.name} replaced`,
        description: `${by} replaced the signing secret of the webhook ${markdownCode(entry.url)} of **${escapeMarkdown(entry.project.name)}**.`,
      };
  }
}

/** The audit entry of a write to an integration or a webhook. */
export function integrationAudit(entry: IntegrationAuditEntry): AuditEntry {
  const webhook =
    entry.kind === 'webhook.created' ||
    entry.kind === 'webhook.updated' ||
    entry.kind === 'webhook.deleted' ||
    entry.kind === 'webhook.secret_rotated';
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: webhook ? 'webhook' : 'integration',
    resourceId: entry.id,
    ...(webhook ? { projectKey: entry.project.key } : {}),
    ...text(entry),
  };
}
