import type { ChangeInput, ChangeRequestChange, ControlSnapshot, MergeConflict } from '@vexil/core';
import { unchosenConflictMessage } from '@vexil/core';
import type { Executor } from '../../db/client';
import { ValidationError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { ChangeRow, NewChange, RequestInScope, RequestRow } from './change-requests.repository';

/*
 * What every kind of change (a control, a feature's settings, a segment) answers to the request
 * (docs/adr/0024-change-requests.md): what adding one stores, and how it reads against what is live
 * — its base, the live state, its proposal and their merge — and is written when the request is
 * applied. control-changes.ts, feature-changes.ts and segment-changes.ts implement it.
 */

/** A change as it is stored, without its request; `label` names it on the timeline. */
export type ResolvedChange = Omit<NewChange, 'changeRequestId' | 'organisationId'> & { label: string };

type Snapshot = Record<string, unknown>;

/** A change read against what is live, and how to write its merge. */
export type ChangePlan = {
  change: ChangeRow;
  resourceName: string;
  featureKey: string | null;
  /** The state the change was drafted on (what is live when it has no base version). */
  base: Snapshot;
  live: Snapshot;
  proposed: Snapshot;
  merged: Snapshot;
  conflicts: MergeConflict[];
  liveVersion: number | null;
  /** Who made the live version (a suspension names them). */
  liveAuthor: string | null;
  /** What turns one state of the resource into another, as sentences. */
  describe: (from: Snapshot, to: Snapshot) => string[];
  /** Whether two states are the same. */
  same: (a: Snapshot, b: Snapshot) => boolean;
  /** Writes the merge in the request's transaction; answers what to announce once it commits. */
  write: (tx: Executor, principal: Principal, request: RequestRow) => Promise<() => void>;
  /** The proposal to store for a state of this kind (a feature's names its maintainer). */
  toProposal?: (state: Snapshot) => Snapshot;
  /** A control's: what the preview for a user evaluates. */
  control?: { variantNames: Record<string, string>; live: ControlSnapshot; merged: ControlSnapshot };
};

/** One kind of change: how it is added and how it is read. */
export type ChangeKind<I extends ChangeInput = ChangeInput> = {
  resolve(tx: Executor, principal: Principal, found: RequestInScope, input: I): Promise<ResolvedChange>;
  /** What a restore of one of this kind's older versions stores (kind `restore`). */
  restore?(
    tx: Executor,
    principal: Principal,
    found: RequestInScope,
    input: Extract<ChangeInput, { kind: 'restore' }>,
  ): Promise<ResolvedChange>;
  /** The change against what is live; null when its resource is gone (archived). `forUpdate` locks it. */
  plan(
    executor: Executor,
    organisationId: string,
    change: ChangeRow,
    options?: { forUpdate?: boolean },
  ): Promise<ChangePlan | null>;
};

/**
 * The change as the request's page shows it: while the request is open, what applying it would
 * change now; once it is closed, what it changed (or proposed) from the state it was drafted on.
 */
export function viewOf(plan: ChangePlan, closed: boolean): ChangeRequestChange {
  const { change } = plan;
  const [from, to] = closed ? [plan.base, plan.proposed] : [plan.live, plan.merged];
  return {
    id: change.id,
    kind: change.kind,
    resourceType: change.resourceType,
    resourceId: change.resourceId,
    featureKey: plan.featureKey,
    resourceName: plan.resourceName,
    baseVersion: change.baseVersion,
    liveVersion: plan.liveVersion,
    restoredFrom: change.restoredFrom,
    comment: change.comment,
    live: plan.live,
    proposed: plan.proposed,
    merged: plan.merged,
    changes: plan.same(from, to) ? [] : plan.describe(from, to),
    conflicts: closed ? [] : plan.conflicts,
  };
}

/** Sets one part of a state, named as a conflict names it (`enabled`, `rules/2`, `rules`, a field). */
function setPart(state: Snapshot, part: string, value: unknown): void {
  const path = part.split('/');
  let target: Record<string, unknown> | unknown[] = state;
  for (const step of path.slice(0, -1)) target = (target as Record<string, unknown>)[step] as typeof target;
  (target as Record<string, unknown>)[path.at(-1)!] = structuredClone(value);
}

/**
 * A change brought up to date: the merge with what is live, each part in conflict keeping the side
 * `keep` chose (`live` or `proposed`); a part left unchosen is refused, naming it.
 */
export function rebased(plan: ChangePlan, keep: Readonly<Record<string, 'live' | 'proposed'>>): Snapshot {
  const state = structuredClone(plan.merged);
  for (const conflict of plan.conflicts) {
    const side = keep[conflict.part];
    if (!side) throw new ValidationError(`keep.${conflict.part}`, unchosenConflictMessage(conflict.label));
    setPart(state, conflict.part, side === 'live' ? conflict.live : conflict.proposed);
  }
  return plan.toProposal ? plan.toProposal(state) : state;
}
