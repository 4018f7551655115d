import { pureEvaluator } from '@vexil/core';
import type { TargetUserAttributes } from '../db/schema/index';
import { evaluatedFeaturesOf, isEvaluate, timeOf, userOf, type SdkEvent } from './events';
import type { createDailyBound } from './ingestion-limits';
import * as rowsOf from './ingestion-rows';
import type { Rows } from './ingestion-rows';
import type { EnvironmentSnapshot } from './sdk-store';
import type { RunningExperiment } from './sdk.repository';

/** Attribute values longer than this are not kept as suggestions. */
const MAX_SUGGESTED_VALUE_LENGTH = 200;

type DailyBound = ReturnType<typeof createDailyBound>;

/**
 * Turns one request's events into the rows they add (docs/adr/0008-event-ingestion-group-commit.md),
 * within the daily bounds of new users, attribute values and names.
 */
export function createCollector(bounds: { users: DailyBound; values: DailyBound; names: DailyBound }) {
  const { users, values, names } = bounds;

  /** Whether `experiment` counts what happened at `at`: between its start and its end, if any. */
  const runsAt = (experiment: RunningExperiment, at: Date) =>
    at >= experiment.startDate && (experiment.endDate === null || at <= experiment.endDate);

  /** A user shown `variantKey` of `featureKey` at `at`: an exposure of each experiment on it that runs then. */
  function exposeUser(
    rows: Rows,
    snapshot: EnvironmentSnapshot,
    userKey: string,
    featureKey: string,
    variantKey: string,
    at: Date,
  ) {
    for (const experiment of snapshot.experiments.byFeature.get(featureKey) ?? []) {
      if (variantKey !== experiment.control && variantKey !== experiment.variation) continue;
      if (!runsAt(experiment, at)) continue;
      rowsOf.expose(rows, {
        organisationId: experiment.organisationId,
        experimentId: experiment.id,
        userKey,
        variantKey,
        exposedAt: at,
        crossed: false,
      });
    }
  }

  /**
   * A user shown `variantKey` of a feature under running ramps (docs/adr/0026-guarded-rollouts.md):
   * when the live rules place the user in a ramp's rule, an exposure in the arm of the variant the
   * SDK reported. Only the rule is evaluated here; the variant is what the user was actually served.
   */
  function exposeToRamps(
    rows: Rows,
    snapshot: EnvironmentSnapshot,
    entry: NonNullable<ReturnType<EnvironmentSnapshot['controls']['get']>>,
    user: { id: string; attributes: Record<string, unknown> },
    variantKey: string,
    at: Date,
  ) {
    const ramps = snapshot.experiments.rampsByFeature.get(entry.control.key);
    if (!ramps) return;
    const { ruleIndex } = pureEvaluator.evaluate(entry.control, user, at);
    for (const ramp of ramps) {
      if (ramp.ruleIndex !== ruleIndex) continue;
      rowsOf.exposeToRamp(rows, {
        organisationId: ramp.organisationId,
        scheduleId: ramp.id,
        userKey: user.id,
        arm: variantKey === ramp.variantKey ? 'treatment' : 'control',
        step: ramp.step,
        exposedAt: at,
      });
    }
  }

  /** One request's rows, within the daily bounds of its environment and project. */
  function collect(snapshot: EnvironmentSnapshot, events: readonly SdkEvent[], receivedAt: Date): Rows {
    const rows = rowsOf.emptyRows();
    const { organisationId, environmentId, projectId, projectKey, environmentKey } = snapshot.keys;
    const experimenting =
      snapshot.experiments.byFeature.size > 0 || snapshot.experiments.rampsByFeature.size > 0;
    for (const event of events) {
      const at = timeOf(event, receivedAt);
      const user = userOf(event);
      if (user && users.admit(environmentId, user.id, receivedAt)) {
        const attributes = user.attributes as TargetUserAttributes;
        rowsOf.seeUser(rows, { organisationId, environmentId, userKey: user.id, attributes, lastSeenAt: at });
        for (const [targetKey, raw] of Object.entries(user.attributes)) {
          if (targetKey.startsWith('featureflow.')) continue;
          for (const value of Array.isArray(raw) ? raw : [raw]) {
            if (value === null) continue;
            const text = String(value);
            if (text === '' || text.length > MAX_SUGGESTED_VALUE_LENGTH) continue;
            if (!values.admit(projectId, rowsOf.rowKey(targetKey, text), receivedAt)) continue;
            rowsOf.seeValue(rows, { organisationId, projectId, targetKey, value: text, lastSeenAt: at });
          }
        }
      }
      if (isEvaluate(event)) {
        const entry = event.featureKey ? snapshot.controls.get(event.featureKey) : undefined;
        if (!entry) continue;
        const controlId = entry.controlId;
        const count = event.impressions ?? 1;
        const variantKey = event.evaluatedVariant;
        const counted =
          !!variantKey &&
          count > 0 &&
          (entry.control.variants.some((variant) => variant.key === variantKey) ||
            names.admit(environmentId, rowsOf.rowKey('variant', controlId, variantKey), receivedAt));
        if (counted) {
          const day = at.toISOString().slice(0, 10);
          rowsOf.addImpressions(rows, {
            organisationId,
            featureControlId: controlId,
            variantKey,
            day,
            count,
          });
        }
        rowsOf.touchControl(rows, {
          controlId,
          lastImpressionAt: counted ? at : null,
          seenAt: receivedAt,
          where: { organisationId, projectKey, environmentKey, featureKey: entry.control.key },
        });
        if (experimenting && counted && user) {
          exposeUser(rows, snapshot, user.id, entry.control.key, variantKey, at);
          exposeToRamps(rows, snapshot, entry, user, variantKey, at);
        }
      } else if (event.type === 'goal' && event.goalKey) {
        if (experimenting && user) {
          // The browser SDK's goal rows say which variants the user was shown (docs/sdk-protocol.md §6.2).
          for (const [featureKey, variantKey] of evaluatedFeaturesOf(event))
            exposeUser(rows, snapshot, user.id, featureKey, variantKey, at);
          for (const experiment of snapshot.experiments.byGoal.get(event.goalKey) ?? []) {
            if (!runsAt(experiment, at)) continue;
            rowsOf.convert(rows, {
              organisationId: experiment.organisationId,
              experimentId: experiment.id,
              userKey: user.id,
              firstAt: at,
              lastAt: at,
              count: 1,
              valueSum: Number.isFinite(event.value) ? event.value! : 0,
            });
          }
        }
        if (!names.admit(environmentId, rowsOf.rowKey('goal', event.goalKey), receivedAt)) continue;
        rowsOf.seeGoal(rows, { organisationId, projectId, key: event.goalKey, lastSeenAt: at });
      }
    }
    return rows;
  }

  return collect;
}
