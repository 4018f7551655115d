import { INTEGRATION_EVENT_KINDS, type IntegrationEventKind, type WebhookDelivery } from '@vexil/core';

/** How each change an integration or a webhook can be told of reads in the dashboard. */
export const EVENT_KIND_LABELS: Readonly<Record<WebhookDelivery['eventType'], string>> = {
  'feature.toggled': 'Feature turned on or off',
  'feature.targeting': 'Targeting changed',
  'feature.created': 'Feature created',
  'feature.deleted': 'Feature deleted',
  'experiment.started': 'Experiment started',
  'experiment.finished': 'Experiment finished',
  'change-request.submitted': 'Change request submitted',
  'change-request.approved': 'Change request approved',
  'change-request.changes-requested': 'Changes requested',
  'change-request.rejected': 'Change request rejected',
  'change-request.applied': 'Change request applied',
  'change-request.suspended': 'Change request suspended',
  'change-request.cancelled': 'Change request cancelled',
  'webhook.test': 'Test delivery',
};

/** The event kinds as select or checkbox options, in the contract's order. */
export const EVENT_KIND_OPTIONS: { value: IntegrationEventKind; label: string }[] =
  INTEGRATION_EVENT_KINDS.map((value) => ({ value, label: EVENT_KIND_LABELS[value] }));

/** What an empty filter list means (docs/product.md §2 "Integrations"): everything. */
export const ALL = 'All';
