import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { GUARD_REGRESSION_ACTIONS } from '@vexil/core';
import { createdAt, timestamptz } from './columns.ts';
import { schedules } from './schedules.ts';
import { organisationId } from './tenant.ts';

/*
 * Guarded rollouts (docs/adr/0026-guarded-rollouts.md): what stops a ramp from outside. Owned by the
 * guards module.
 */

/**
 * A ramp's alert URL: `POST /api/v1/alerts/{token}` stops the ramp (rolls it back or pauses it). Only
 * the token's SHA-256 is kept; the token itself is shown once, when it is made or replaced.
 */
export const rampAlerts = pgTable(
  'ramp_alerts',
  {
    scheduleId: uuid('schedule_id')
      .primaryKey()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    organisationId: organisationId(),
    tokenHash: text('token_hash').notNull().unique(),
    action: text('action', { enum: GUARD_REGRESSION_ACTIONS }).notNull(),
    createdById: uuid('created_by_id'),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    /** When an alert last came, and what it did. */
    lastAlertAt: timestamptz('last_alert_at'),
    lastResult: text('last_result'),
  },
  (t) => [index('ramp_alerts_organisation_idx').on(t.organisationId)],
);
