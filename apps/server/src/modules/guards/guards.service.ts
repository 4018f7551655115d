import { alertBodySchema, rampAlertInput, type AlertAnswer, type RampAlert } from '@vexil/core';
import type { Database } from '../../db/client';
import { NotFoundError } from '../../errors';
import { hashToken, newSecretToken } from '../../lib/tokens';
import type { Principal } from '../auth/auth.service';
import type { ScheduleGuardPort } from '../schedules/schedule-guard-port';
import * as repo from './guards.repository';
import type { RampAlertRecord } from './guards.repository';

/*
 * Guarded rollouts (docs/adr/0026-guarded-rollouts.md). So far: a ramp's alert URL, which any
 * alerting tool (Alertmanager, Grafana, Datadog…) calls to roll the ramp back or pause it.
 */

/** Alert URL tokens: `vxa_` and 256 random bits, base64url. */
const ALERT_TOKEN_PREFIX = 'vxa_';
const ALERT_TOKEN_PATTERN = /^vxa_[A-Za-z0-9_-]{43}$/;
/** How many alert names the ramp's history quotes. */
const QUOTED_ALERTS = 3;

export type GuardsService = ReturnType<typeof createGuardsService>;

export function createGuardsService(deps: {
  db: Database;
  /** Lazy: schedules are made after guards in the composition root. */
  schedules: () => ScheduleGuardPort;
  publicUrl: string;
  now?: () => Date;
}) {
  const { db, publicUrl } = deps;
  const now = deps.now ?? (() => new Date());

  const view = (row: RampAlertRecord, token?: string): RampAlert => ({
    action: row.action,
    ...(token ? { url: `${publicUrl}/api/v1/alerts/${token}` } : {}),
    createdBy: row.createdByName,
    createdDate: row.createdAt.toISOString(),
    lastAlertDate: row.lastAlertAt?.toISOString() ?? null,
    lastResult: row.lastResult,
  });

  return {
    /**
     * POST …/schedules/{id}/alert: a new alert URL for the ramp, shown this once; the old one stops
     * working. The ramp's history says who made or replaced it and what an alert does.
     */
    async make(principal: Principal, projectKey: string, id: string, input: unknown): Promise<RampAlert> {
      const { action } = rampAlertInput.parse(input ?? {});
      const token = newSecretToken(ALERT_TOKEN_PREFIX);
      const row = await db.transaction(async (tx) => {
        const ramp = await deps.schedules().ramp(tx, principal, projectKey, id);
        const replaced = !!(await repo.alertOf(tx, ramp.organisationId, ramp.id));
        const made = await repo.putAlert(
          tx,
          {
            scheduleId: ramp.id,
            organisationId: ramp.organisationId,
            tokenHash: hashToken(token),
            action,
            createdById: principal.userId,
            createdByName: principal.email,
          },
          now(),
        );
        const does = action === 'rollback' ? 'rolls the ramp back' : 'pauses the ramp';
        await deps
          .schedules()
          .note(
            tx,
            ramp,
            principal,
            replaced
              ? `Alert URL replaced: the old one no longer works; an alert ${does}.`
              : `Alert URL made: an alert ${does}.`,
          );
        return made;
      });
      return view(row, token);
    },

    /** GET …/schedules/{id}/alert: whether the ramp has an alert URL, what it does and when it was last called. */
    async get(principal: Principal, projectKey: string, id: string): Promise<RampAlert> {
      const ramp = await deps.schedules().ramp(db, principal, projectKey, id);
      const row = await repo.alertOf(db, ramp.organisationId, ramp.id);
      if (!row) throw new NotFoundError('alert URL for this ramp');
      return view(row);
    },

    /** DELETE …/schedules/{id}/alert: the alert URL stops working; the ramp's history says who removed it. */
    async remove(principal: Principal, projectKey: string, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const ramp = await deps.schedules().ramp(tx, principal, projectKey, id);
        if (!(await repo.deleteAlert(tx, ramp.organisationId, ramp.id)))
          throw new NotFoundError('alert URL for this ramp');
        await deps.schedules().note(tx, ramp, principal, 'Alert URL removed: it no longer works.');
      });
    },

    /**
     * POST /api/v1/alerts/{token}: stops the token's ramp as its alert URL says, unless the alert is
     * resolved. Null for a token that opens nothing (the route answers 404 and says no more).
     */
    async receive(token: string, body: unknown): Promise<AlertAnswer | null> {
      if (!ALERT_TOKEN_PATTERN.test(token)) return null;
      const alert = await repo.alertByToken(db, hashToken(token));
      if (!alert) return null;
      const parsed = alertBodySchema.parse(body ?? {});
      const answer: AlertAnswer =
        parsed.status === 'resolved'
          ? { result: 'skipped', reason: 'The alert is resolved: there is nothing to stop.' }
          : await deps
              .schedules()
              .stop(alert.organisationId, alert.scheduleId, alert.action, alertNote(parsed));
      await repo.noteAlert(
        db,
        alert.organisationId,
        alert.scheduleId,
        now(),
        `${answer.result}: ${answer.reason}`,
      );
      return answer;
    },
  };
}

/** What the ramp's history says of an alert: "An alert came (HighErrorRate, SlowCheckout)." */
function alertNote(body: ReturnType<typeof alertBodySchema.parse>): string {
  const names = [
    ...new Set(
      (body.alerts ?? [])
        .map((alert) => alert.labels?.alertname)
        .filter((name): name is string => !!name)
        .map((name) => name.slice(0, 100)),
    ),
  ];
  const quoted = names.slice(0, QUOTED_ALERTS).join(', ');
  const more = names.length > QUOTED_ALERTS ? ` and ${names.length - QUOTED_ALERTS} more` : '';
  return names.length
    ? `An alert came to its alert URL (${quoted}${more}).`
    : 'An alert came to its alert URL.';
}
