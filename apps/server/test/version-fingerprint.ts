import { eq } from 'drizzle-orm';
import { environments, featureControls, features, segments, versions } from '../src/db/schema/index';
import type { FeatureSettingsSnapshot } from '@vexil/core';
import { settingsSnapshot } from '../src/modules/features/feature-versions';
import type { Harness } from './helpers';

/*
 * What the versions invariant (versions-invariant.test.ts) compares around each call: every feature
 * control's, feature's, segment's and live environment's state, how many versions each has, and its
 * newest version's snapshot.
 */

/** JSON with sorted keys: jsonb reorders keys, and key order is not a change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Settings as a change is judged: the maintainer by id (a member renaming themselves changes no feature). */
function settingsState(snapshot: FeatureSettingsSnapshot): string {
  return canonical({ ...snapshot, maintainer: snapshot.maintainer?.id ?? null });
}

/** Each versioned resource: its state now, how many versions it has, and its newest version's snapshot. */
export type Entry = { state?: string; count: number; newest?: string };

export async function fingerprint(h: Harness): Promise<Map<string, Entry>> {
  const db = h.database.db;
  const out = new Map<string, Entry>();
  const entry = (key: string) => {
    if (!out.has(key)) out.set(key, { count: 0 });
    return out.get(key)!;
  };
  for (const control of await db.select().from(featureControls)) {
    entry(`feature_control:${control.id}`).state = canonical({
      enabled: control.enabled,
      offVariantKey: control.offVariantKey,
      rules: control.rules,
    });
  }
  for (const feature of await db.select().from(features)) {
    const snapshot = await settingsSnapshot(db, h.app.services.team, feature.organisationId, feature);
    entry(`feature:${feature.id}`).state = settingsState(snapshot);
  }
  for (const segment of await db.select().from(segments)) {
    entry(`segment:${segment.id}`).state = canonical({
      key: segment.key,
      name: segment.name,
      description: segment.description,
    });
  }
  // An environment's settings, never its SDK keys; an archived one is gone (its history stays).
  for (const env of await db.select().from(environments).where(eq(environments.archived, false))) {
    entry(`environment:${env.id}`).state = canonical({
      name: env.name,
      key: env.key,
      url: env.url ?? '',
      color: env.color,
      local: env.local,
      production: env.production,
      tags: env.tags,
      sdkCanCreateFeatures: env.sdkCanCreateFeatures,
    });
  }
  const rows = await db
    .select({
      resourceType: versions.resourceType,
      resourceId: versions.resourceId,
      number: versions.number,
      snapshot: versions.snapshot,
    })
    .from(versions);
  const newestNumber = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.resourceType}:${row.resourceId}`;
    const found = entry(key);
    found.count += 1;
    if (row.number > (newestNumber.get(key) ?? 0)) {
      newestNumber.set(key, row.number);
      found.newest =
        row.resourceType === 'feature'
          ? settingsState(row.snapshot as FeatureSettingsSnapshot)
          : canonical(row.snapshot);
    }
  }
  return out;
}

/** What broke the rules between two fingerprints, and which resources changed. */
export function compare(before: Map<string, Entry>, after: Map<string, Entry>) {
  const problems: string[] = [];
  const changed: string[] = [];
  for (const [key, now] of after) {
    const then = before.get(key) ?? { count: 0 };
    // A resource deleted with its feature or environment takes its history with it.
    if (now.state === undefined) continue;
    const added = now.count - then.count;
    const differs = then.state !== now.state;
    if (differs) changed.push(key);
    if (differs && added !== 1) problems.push(`${key} changed with ${added} new versions`);
    if (!differs && added !== 0) problems.push(`${key} did not change but got ${added} new versions`);
    if (now.newest !== now.state) problems.push(`${key}: its newest version is not its state`);
  }
  return { problems, changed };
}
