import type { IntegrationEventKind, IntegrationFilters } from '@vexil/core';
import type { LiveChange } from '../../lib/change-events';
import type { SlackMessage } from './slack-adapter';
import type { ChangeSubject, IntegrationEvent } from './integrations.types';

/*
 * How a change is told to the chat service and to outgoing webhooks (docs/product.md "Integrations"):
 * what happened, who did it, where (project, environment) and a link to the dashboard's page.
 */

/** The kind of integration event a live change is, or null when integrations are not told of it. */
export function eventKindOf(change: LiveChange): IntegrationEventKind | null {
  switch (change.kind) {
    case 'feature.toggled':
    case 'feature.targeting':
    case 'feature.created':
    case 'feature.deleted':
      return change.kind;
    case 'experiment.changed':
      if (change.experiment?.transition === 'started') return 'experiment.started';
      if (change.experiment?.transition === 'finished') return 'experiment.finished';
      return null;
    case 'change-request.changed':
      return change.changeRequest ? `change-request.${change.changeRequest.transition}` : null;
    default:
      return null;
  }
}

/**
 * The dashboard of one organisation, as links sent outside Vexil must address it: a teammate opening
 * one in a browser that has no session reaches that organisation's sign-in, then the page, instead of
 * the bare address's sign-up. Its sub-domain when the public address is the base domain itself (and
 * not localhost), as the sign-in page's Continue does; otherwise the path form `{PUBLIC_URL}/{domain}`,
 * which works on every deployment (docs/product.md "Integrations").
 */
export function organisationDashboard(publicUrl: string, baseDomain: string, domain: string): string {
  const base = new URL(publicUrl);
  if (base.hostname === baseDomain && baseDomain !== 'localhost')
    return `${base.protocol}//${domain}.${baseDomain}${base.port ? `:${base.port}` : ''}`;
  return `${publicUrl.replace(/\/+$/, '')}/${encodeURIComponent(domain)}`;
}

/** The dashboard page of a change: the feature in its environment, the experiments, or the feature list. */
function pageOf(
  dashboard: string,
  kind: IntegrationEventKind,
  subject: ChangeSubject & { changeRequestId?: string | undefined },
): string {
  const home = `${dashboard}/home`;
  const project = `${dashboard}/projects/${encodeURIComponent(subject.project.key)}`;
  const environmentKey = subject.environment?.key ?? subject.firstEnvironmentKey;
  const environment = environmentKey ? `${project}/environments/${encodeURIComponent(environmentKey)}` : null;
  const featureKey = subject.feature ? encodeURIComponent(subject.feature.key) : null;
  if (kind === 'experiment.started' || kind === 'experiment.finished')
    return environment ? `${environment}/experiments` : `${project}/features/${featureKey ?? ''}`;
  if (kind === 'feature.deleted') return environment ? `${environment}/features` : home;
  if (kind.startsWith('change-request.') && subject.changeRequestId && environment)
    return `${environment}/change-requests/${encodeURIComponent(subject.changeRequestId)}`;
  if (subject.environment && environment && featureKey) return `${environment}/features/${featureKey}`;
  // The dashboard sends /projects/{p}/features/{f} to the feature in the project's first environment.
  return featureKey ? `${project}/features/${featureKey}` : home;
}

/** Where the dashboard is: PUBLIC_URL and BASE_DOMAIN. */
export type DashboardAddress = { publicUrl: string; baseDomain: string };

export function integrationEvent(
  organisationId: string,
  kind: IntegrationEventKind,
  change: LiveChange,
  subject: ChangeSubject,
  address: DashboardAddress,
): IntegrationEvent {
  const dashboard = organisationDashboard(address.publicUrl, address.baseDomain, subject.organisationDomain);
  return {
    kind,
    organisationId,
    organisationDomain: subject.organisationDomain,
    project: subject.project,
    environment: subject.environment,
    feature: subject.feature,
    experiment: change.experiment ? { name: change.experiment.name } : null,
    changeRequest: change.changeRequest
      ? { id: change.changeRequest.id, title: change.changeRequest.title }
      : null,
    enabled: kind === 'feature.toggled' && typeof change.enabled === 'boolean' ? change.enabled : null,
    actor: change.actor ? { id: change.actor.id, email: change.actor.name } : null,
    at: change.at,
    url: pageOf(dashboard, kind, { ...subject, changeRequestId: change.changeRequest?.id }),
  };
}

/**
 * Whether an integration with these filters is told of the event: its project, environment and kind
 * each among the chosen ones, an empty list choosing all. A change that concerns no one environment
 * (a feature created or deleted) passes the environment filter.
 */
export function passes(filters: IntegrationFilters, event: IntegrationEvent): boolean {
  if (filters.events.length > 0 && !filters.events.includes(event.kind)) return false;
  if (filters.projectKeys.length > 0 && !filters.projectKeys.includes(event.project.key)) return false;
  if (event.environment && filters.environmentKeys.length > 0)
    return filters.environmentKeys.includes(event.environment.key);
  return true;
}

/** Text as Slack's mrkdwn shows it literally: its three control characters escaped. */
function slackText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A link in Slack's mrkdwn (a `|` or `>` in the URL would end it: they are percent-encoded). */
function slackLink(url: string, label: string): string {
  return `<${url.replaceAll('|', '%7C').replaceAll('>', '%3E')}|${slackText(label)}>`;
}

/** What the actor did to a change request, as a sentence says it. */
const CHANGE_REQUEST_VERBS: Record<
  Exclude<IntegrationEventKind, `feature.${string}` | `experiment.${string}`>,
  string
> = {
  'change-request.submitted': 'submitted for review',
  'change-request.approved': 'approved',
  'change-request.changes-requested': 'asked for changes to',
  'change-request.rejected': 'rejected',
  'change-request.applied': 'applied',
  'change-request.suspended': 'suspended',
  'change-request.cancelled': 'cancelled',
};

/** What happened, in one sentence: "Ada turned on New checkout in Production." */
export function sentence(event: IntegrationEvent, name: (text: string) => string = (t) => t): string {
  const who = event.actor ? event.actor.email : 'An SDK';
  const feature = event.feature ? name(event.feature.name) : 'a feature';
  const environment = event.environment ? name(event.environment.name) : '';
  const project = name(event.project.name);
  switch (event.kind) {
    case 'feature.toggled':
      return `${who} turned ${event.enabled === false ? 'off' : event.enabled ? 'on' : 'on or off'} ${feature} in ${environment} (${project}).`;
    case 'feature.targeting':
      return `${who} saved the targeting of ${feature} in ${environment} (${project}).`;
    case 'feature.created':
      return `${who} created the feature ${feature} in ${project}.`;
    case 'feature.deleted':
      return `${who} deleted the feature ${feature} from ${project}.`;
    case 'experiment.started':
    case 'experiment.finished':
      return `${who} ${event.kind === 'experiment.started' ? 'started' : 'finished'} the experiment ${name(event.experiment?.name ?? '')} on ${feature} in ${environment} (${project}).`;
    case 'change-request.submitted':
    case 'change-request.approved':
    case 'change-request.changes-requested':
    case 'change-request.rejected':
    case 'change-request.applied':
    case 'change-request.suspended':
    case 'change-request.cancelled': {
      const request = `the change request ${name(event.changeRequest?.title ?? '')}`;
      const where = `in ${environment} (${project})`;
      if (event.kind === 'change-request.suspended')
        return `Applying ${request} ${where} was suspended: its changes conflict with what changed since.`;
      return `${who} ${CHANGE_REQUEST_VERBS[event.kind]} ${request} ${where}.`;
    }
  }
}

/** The chat message of an event: a sentence with the feature linked, and where it happened. */
export function slackMessage(event: IntegrationEvent): SlackMessage {
  const bold = (text: string) => `*${slackText(text)}*`;
  const text = sentence(event, bold);
  const where = [
    `Project ${bold(event.project.name)}`,
    ...(event.environment ? [`Environment ${bold(event.environment.name)}`] : []),
    slackLink(event.url, 'Open in Vexil'),
  ].join(' · ');
  return {
    text: slackText(sentence(event)),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: where }] },
    ],
  };
}

/**
 * The JSON body of an outgoing webhook (Standard Webhooks: `type`, `timestamp`, `data`). The same
 * body is sent at every attempt and resend; the signature headers carry each attempt's time.
 */
export function webhookPayload(event: IntegrationEvent): string {
  return JSON.stringify({
    type: event.kind,
    timestamp: event.at,
    data: {
      organisation: { domain: event.organisationDomain },
      project: { key: event.project.key, name: event.project.name },
      environment: event.environment,
      feature: event.feature,
      experiment: event.experiment,
      ...(event.changeRequest ? { changeRequest: event.changeRequest } : {}),
      ...(event.kind === 'feature.toggled' ? { enabled: event.enabled } : {}),
      actor: event.actor,
      summary: sentence(event),
      url: event.url,
    },
  });
}
