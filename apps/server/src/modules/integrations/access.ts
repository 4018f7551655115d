import { INTEGRATIONS_ADMINS_ONLY, can } from '@vexil/core';
import { AppError, ForbiddenError } from '../../errors';
import type { Principal } from '../auth/auth.service';

export const INTEGRATIONS_TURNED_OFF = 'Integrations are turned off on this server.';
export const JIRA_TURNED_OFF = 'The Jira integration is turned off on this server.';

/** Refuses when the part is turned off (404, as if absent), then anyone but an organisation admin (403). */
export function assertIntegrationsAdmin(
  principal: Principal,
  enabled: boolean,
  off = INTEGRATIONS_TURNED_OFF,
) {
  if (!enabled) throw new AppError(404, 'Not found', off);
  if (!can(principal, 'manage', { type: 'organisation' })) throw new ForbiddenError(INTEGRATIONS_ADMINS_ONLY);
}

/** Where failures of work done in the background are reported: ids and reasons, never a URL or secret. */
export type IntegrationsLogger = { warn: (details: Record<string, unknown>, message: string) => void };

/** The secret box context of an integration's secret: bound to its field and organisation. */
export function secretContext(field: string, organisationId: string): string {
  return `integration.${field}:${organisationId}`;
}
