import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { GUARD_REGRESSION_ACTIONS } from '@vexil/core';
import { createdAt, timestamptz } from './columns.ts';
import { schedules } from './schedules.ts';
import { organisationId } from './tenant.ts';

/*
 * Guarded rollouts (docs/adr/0026-guarded-rollouts.md): a ramp's arms, written by the event
 * ingestion (module sdk), and what stops a ramp from outside (module guards).
 */

/** Which arm of a ramp a user counts for: served the ramped variant, or another of the rule's. */
export const RAMP_ARMS = ['treatment', 'control'] as const;

/**
 * A user of a running ramp's rule, by their first exposure there: the arm of the variant they were
 * reported with and the ramp's step then. Later exposures never move them, so each arm is exact.
 */
export const rampExposures = pgTable(
  'ramp_exposures',
  {
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    organisationId: organisationId(),
    userKey: text('user_key').notNull(),
    arm: text('arm', { enum: RAMP_ARMS }).notNull(),
    step: integer('step').notNull(),
    exposedAt: timestamptz('exposed_at').notNull(),
  },
  (t) => [primaryKey({ name: 'ramp_exposures_pk', columns: [t.scheduleId, t.userKey] })],
);

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
