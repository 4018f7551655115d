import { useMemo, useState } from 'react';
import type { FeatureControl, TargetingPart } from '@vexil/core';
import { useLiveChanges } from '../../../lib/live';
import { useSession } from '../../../lib/session';
import { draftFromControl, draftSignature, type TargetingDraft } from './targeting-draft';
import { mergeDrafts, samePart, withPart } from './targeting-merge';

/** Who saved the targeting since the edit began, and when; `by` null when not known. */
export type Attribution = { by: string | null; at: string };

/**
 * Targeting saved elsewhere while this form held an edit: who and when, and, once what they saved is
 * loaded (`theirs`), the parts both changed that the user has still to choose between.
 */
export type Conflict = Attribution & { theirs: TargetingDraft | null; parts: TargetingPart[] };

/**
 * The version an edit is based on, kept in step with the control as the page loads it
 * (docs/adr/0013-concurrent-edits.md): without edits the form shows what is stored; with edits, what
 * was saved since (by someone else, or by this window's own header switch) comes into every part the
 * edit left alone, and the edit is then based on it, so saving cannot undo it nor be refused for it.
 * Parts both changed keep the edit's and become a {@link Conflict} to resolve part by part. A live
 * change of this targeting by someone else is reported at once, before what they saved has loaded.
 */
export function useTargetingSync(options: {
  control: FeatureControl;
  variantKeys: readonly string[];
  draft: TargetingDraft;
  setDraft: (draft: TargetingDraft) => void;
  where: { projectKey: string; featureKey: string; environmentKey: string };
}) {
  const { control, variantKeys, draft, setDraft, where } = options;
  const me = useSession().principalUser.id;
  const [saved, setSaved] = useState(control);
  // The version of the control the draft is based on, which a save sends back.
  const [basedOn, setBasedOn] = useState(control.lastModifiedDate);
  // The variants the draft was made for: they change when the Settings tab saves new ones while
  // this editor waits, hidden, for the user to come back.
  const [draftKeys, setDraftKeys] = useState<readonly string[]>(variantKeys);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // Who made the next change that loads, as the live connection or a refused save said; `tell` when
  // the user should hear of it even if nothing of it clashes with the edit.
  const [heard, setHeard] = useState<(Attribution & { tell: boolean }) | null>(null);

  const savedSignature = useMemo(
    () => draftSignature(draftFromControl(saved, draftKeys)),
    [saved, draftKeys],
  );
  const dirty = draftSignature(draft) !== savedSignature;

  if (control !== saved || variantKeys.join('\n') !== draftKeys.join('\n')) {
    const sameVariants = variantKeys.join('\n') === draftKeys.join('\n');
    const base = draftFromControl(saved, draftKeys);
    const incoming = draftFromControl(control, variantKeys);
    setSaved(control);
    setDraftKeys(variantKeys);
    const same = draftSignature(incoming) === draftSignature(draft);
    const news = heard;
    setHeard(null);
    if (!dirty || same) {
      if (!same) setDraft(incoming);
      setBasedOn(control.lastModifiedDate);
      setConflict(null);
    } else if (sameVariants) {
      const merged = mergeDrafts(base, draft, incoming);
      setDraft(merged.draft);
      setBasedOn(control.lastModifiedDate);
      const parts = [...new Set([...(conflict?.parts ?? []), ...merged.conflicts])].filter(
        (part) => !samePart(merged.draft[part], incoming[part]),
      );
      if (parts.length > 0 || news?.tell || conflict) {
        setConflict({
          by: news?.by ?? conflict?.by ?? null,
          at: news?.at ?? conflict?.at ?? control.lastModifiedDate,
          theirs: incoming,
          parts,
        });
      }
    }
    // New variants with an edit under way: the edit stays on the version it started from.
  }

  useLiveChanges((change) => {
    if (change.kind !== 'feature.toggled' && change.kind !== 'feature.targeting') return;
    if (change.projectKey !== where.projectKey || change.featureKey !== where.featureKey) return;
    if (change.environmentKey !== where.environmentKey) return;
    const other = change.actor?.id !== me;
    setHeard({ by: change.actor?.name ?? null, at: change.at, tell: other });
    if (other && dirty) {
      setConflict((current) => ({
        by: change.actor?.name ?? null,
        at: change.at,
        theirs: null,
        parts: current?.parts ?? [],
      }));
    }
  });

  return {
    basedOn,
    dirty,
    conflict,
    /** Shows `next` as saved, and edits start from it again: unsaved edits and conflicts go. */
    startFrom(next: FeatureControl, keys: readonly string[]) {
      setSaved(next);
      setDraftKeys(keys);
      setDraft(draftFromControl(next, keys));
      setBasedOn(next.lastModifiedDate);
      setConflict(null);
    },
    /** A save was refused as stale (409): who saved since, told once what they saved has loaded. */
    refused(attribution: Attribution) {
      setHeard({ ...attribution, tell: true });
      setConflict((current) => ({
        ...attribution,
        theirs: current?.theirs ?? null,
        parts: current?.parts ?? [],
      }));
    },
    /** Settles one part both changed: the edit's (`mine`) or what was saved (`theirs`). */
    choose(part: TargetingPart, side: 'mine' | 'theirs') {
      if (!conflict) return;
      if (side === 'theirs' && conflict.theirs) setDraft(withPart(draft, conflict.theirs, part));
      const parts = conflict.parts.filter((other) => other !== part);
      setConflict(parts.length > 0 ? { ...conflict, parts } : null);
    },
    dismiss() {
      setConflict(null);
    },
  };
}
