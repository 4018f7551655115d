// Over 400 lines on purpose: the rules editor's one state (rules, switch, off variant, unsaved edits,
// concurrent-edit and change-request outcomes of a save) and the components it hands it to.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { hasErrorCode, isApiError } from '../../../lib/api-client';
import { confirm } from '../../../lib/modals';
import { notifySuccess, notifyWarning } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import {
  can,
  describeRules,
  isProductionEnvironment,
  productionWarning,
  targetTypeOf,
  type Feature,
  type FeatureControl,
  type ProjectSummary,
} from '@vexil/core';
import { useCreateTarget } from '../../../entities/targets/api/create-target';
import { useSegments } from '../../../entities/segments/api/get-segments';
import { useTargets } from '../../../entities/targets/api/get-targets';
import { useSaveTargeting } from '../../../entities/controls/api/save-feature-control';
import { useReloadFeature } from '../../../entities/features/api/get-feature';
import { formFailureMessage } from '../../../components/form-failure';
import { openCreateTargetModal } from './create-target-modal';
import type { EditorEnv } from './editor-env';
import { FallbackCard, RuleCard, type RampAction } from './rule-card';
import { RampEditorModal } from './ramp-editor-modal';
import { ruleNameOf, savedRuleIndexes } from './schedule-rules';
import { SaveBar, SaveFailureAlert, type Failure } from './save-bar';
import { RulePreview } from './rule-preview';
import { draftFromControl, draftSignature, moveRule, newRule, type TargetingDraft } from './targeting-draft';
import { ChangeRequestOffer } from '../../../components/change-request-offer';
import { useTargetingChangeRequest } from './targeting-change-request';
import { scrollToView, withFieldsOf, withoutErrorsOf, type Reveal } from './targeting-editor-helpers';
import { TargetingConflicts } from './targeting-conflicts';
import { TargetingStatusCard } from './targeting-status-card';
import { useTargetingSync } from './targeting-sync';
import classes from './targeting.module.css';
import { errorsByKey, fieldKey, placeOfPath, validateDraft } from './targeting-validation';

/** Why a rule cannot be ramped while the form holds edits: a ramp grows a rule as it is saved. */
export const RAMP_UNSAVED_REASON = 'Save or reset your edits first: a ramp starts from the saved rules.';

export type TargetingEditorProps = {
  feature: Feature;
  control: FeatureControl;
  environment: ProjectSummary['environments'][number];
};

/**
 * docs/product.md §2 Targeting tab: the switch, the off variant, the ordered rules and the ELSE rule of one
 * environment, checked as the server checks them (docs/product.md §5), saved after a confirmation in production
 * (docs/product.md §8 toasts; a failure marks the form and puts field errors on their fields), with a preview.
 * A save names the version of the control the edit is based on. What is saved meanwhile (the header's
 * switch included) comes into the parts the edit left alone, and parts both changed are the user's to
 * settle, keeping theirs or taking the other's; a save refused as stale (409 `stale_write`) loads what
 * was saved and does the same, so no edit is lost (targeting-sync.ts, docs/adr/0013-concurrent-edits.md).
 * A condition the user adds is not marked in error before they touch it or try to save; a new rule is
 * scrolled into view with its first field focused. Where the environment asks for change requests,
 * Save adds the edit to one instead (targeting-change-request.tsx). Each rule's Ramp action opens the
 * ramp editor for that rule as saved (ramp-editor-modal.tsx).
 */
export function TargetingEditor({ feature, control, environment }: TargetingEditorProps) {
  const { principalUser, projects } = useSession();
  const projectKey = feature.projectKey;
  const targetsQuery = useTargets(projectKey);
  const segmentsQuery = useSegments({ projectKey, environmentKey: environment.key, query: '' });
  const createTarget = useCreateTarget();
  const save = useSaveTargeting();
  const changeRequest = useTargetingChangeRequest(feature, environment);
  const [comment, setComment] = useState('');
  const reloadFeature = useReloadFeature();
  const variantKeys = useMemo(() => feature.variants.map((variant) => variant.key), [feature.variants]);

  const [draft, setDraft] = useState<TargetingDraft>(() => draftFromControl(control, variantKeys));
  const sync = useTargetingSync({
    control,
    variantKeys,
    draft,
    setDraft,
    where: { projectKey, featureKey: feature.key, environmentKey: environment.key },
  });
  const { basedOn, dirty, conflict } = sync;
  const [failure, setFailure] = useState<Failure | null>(null);
  const [serverErrors, setServerErrors] = useState<Map<string, string>>(new Map());
  // Fields of conditions added in this edit that the user has not changed or left yet: an empty new
  // condition is not an error until then, or until a save is tried.
  const [untouched, setUntouched] = useState<ReadonlySet<string>>(new Set());
  // Counts the times edits started afresh: what the ELSE rule's split editor remembers of the user's
  // shares belongs to one edit (the targeted rules get new ids, and new editors, anyway).
  const [edition, setEdition] = useState(0);
  // The rule being ramped, by its place in the saved control's rules.
  const [ramping, setRamping] = useState<number | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const reveal = useRef<Reveal | null>(null);
  // The field the editor focused itself: leaving it before doing anything there is not touching it.
  const autoFocused = useRef<string | null>(null);

  const targets = useMemo(() => targetsQuery.data ?? [], [targetsQuery.data]);
  const segments = useMemo(() => segmentsQuery.data ?? [], [segmentsQuery.data]);
  const validation = useMemo(() => {
    const targetTypes = Object.fromEntries(targets.map((target) => [target.key, target.type]));
    const segmentKeys = segmentsQuery.data ? new Set(segments.map((segment) => segment.key)) : undefined;
    return validateDraft(draft, {
      controlId: control.id,
      featureKey: feature.key,
      variantKeys,
      targetTypes,
      segmentKeys,
    });
  }, [draft, targets, segments, segmentsQuery.data, control.id, feature.key, variantKeys]);

  const errors = new Map<string, string>();
  for (const [key, message] of validation.errors) if (!untouched.has(key)) errors.set(key, message);
  for (const [key, message] of serverErrors) if (!errors.has(key)) errors.set(key, message);
  const touch = (key: string, by: 'change' | 'blur') => {
    if (by === 'blur' && autoFocused.current === key) {
      autoFocused.current = null;
      return;
    }
    if (by === 'change' && autoFocused.current === key) autoFocused.current = null;
    if (!untouched.has(key)) return;
    setUntouched((keys) => new Set([...keys].filter((other) => other !== key)));
  };
  const typeOf = (target: string) =>
    targetTypeOf(target, { targetTypes: Object.fromEntries(targets.map((t) => [t.key, t.type])) });
  const env: EditorEnv = {
    projectKey,
    targets,
    segments,
    variants: feature.variants,
    typeOf,
    errors,
    touch,
    onCreateTarget: can(principalUser, 'create', {
      type: 'target',
      projectId: projects.find((project) => project.key === projectKey)?.id,
    })
      ? (name) =>
          openCreateTargetModal({
            initialName: name,
            create: (target) => createTarget.mutateAsync({ projectKey, target }),
          })
      : null,
  };
  const variantNames = Object.fromEntries(feature.variants.map((variant) => [variant.key, variant.name]));
  const usedTargets = [
    ...new Set(draft.rules.flatMap((rule) => rule.conditions.map((c) => c.target)).filter(Boolean)),
  ];

  const edit = (next: TargetingDraft, about: { rules?: string[]; conditions?: string[] } = {}) => {
    setDraft(next);
    if (serverErrors.size > 0) {
      setServerErrors(withoutErrorsOf(serverErrors, about.rules ?? [], about.conditions ?? []));
    }
  };

  /** Shows `next` as saved and edits start from it again; unsaved edits are dropped. */
  const startFrom = (next: FeatureControl, keys: readonly string[]) => {
    sync.startFrom(next, keys);
    setFailure(null);
    setServerErrors(new Map());
    setUntouched(new Set());
    setEdition((count) => count + 1);
  };

  const reset = () => startFrom(control, variantKeys);

  const submit = async () => {
    const input = validation.input;
    if (save.isPending || changeRequest.isPending) return;
    if (!input) {
      // Errors waiting for their fields to be touched show now, and the first is brought into view.
      setUntouched(new Set());
      reveal.current = 'firstError';
      return;
    }
    if (isProductionEnvironment(environment) && !changeRequest.throughRequest) {
      const confirmed = await confirm({
        title: 'Production environment',
        message: productionWarning(feature.name, environment.name),
        confirmLabel: 'Save targeting',
      });
      if (!confirmed) return;
    }
    const sent = draft;
    setFailure(null);
    setServerErrors(new Map());
    const body = { ...input, comment: comment.trim(), lastModifiedDate: basedOn };
    let result: FeatureControl;
    try {
      if (changeRequest.throughRequest) return await changeRequest.add(body, draftSignature(sent));
      result = await save.mutateAsync({ projectKey, featureKey: feature.key, control: body });
    } catch (error) {
      // Refused for want of a change request: the edit stays in the form, and the way on is offered.
      if (changeRequest.refused(error)) return;
      if (hasErrorCode(error, 'stale_write')) {
        // Saved by someone (or this window's header switch) since: what they saved is loaded into
        // the form beside the edit, which is kept.
        sync.refused({ by: error.changedBy ?? null, at: error.changedAt ?? new Date().toISOString() });
        await reloadFeature(projectKey, feature.key).catch(() => undefined);
        return;
      }
      const title = formFailureMessage(error);
      const problems = isApiError(error) ? error.errors : [];
      notifyWarning(title);
      setFailure({
        title,
        problems: problems.map(({ field, message }) => ({ place: placeOfPath(field, sent), message })),
      });
      setServerErrors(errorsByKey(problems, sent));
      return;
    }
    startFrom(result, variantKeys);
    setComment('');
    notifySuccess(`${feature.name} targeting for ${environment.name} saved.`);
  };

  const addRule = () => {
    const rule = newRule(draft, variantKeys);
    edit({ ...draft, rules: [...draft.rules, rule] });
    setUntouched((keys) => withFieldsOf(keys, rule.conditions));
    reveal.current = { rule: rule.id, field: fieldKey.condition(rule.conditions[0]!.id, 'target') };
  };

  // After the render that added a rule (or tried to save with errors), bring it into view and focus it.
  useEffect(() => {
    const what = reveal.current;
    const editor = root.current;
    if (what === null || editor === null) return;
    reveal.current = null;
    const field =
      what === 'firstError'
        ? editor.querySelector<HTMLElement>('[aria-invalid="true"]')
        : editor.querySelector(`[data-rule-id="${what.rule}"]`)?.querySelector<HTMLElement>('input');
    if (!field) return;
    scrollToView(field.closest<HTMLElement>('[data-rule-id]') ?? field);
    if (what !== 'firstError') autoFocused.current = what.field;
    field.focus({ preventScroll: true });
  });

  // Invalid as far as the user can see: a save with errors still hidden shows them instead of saving.
  const invalid =
    validation.input === null && [...validation.errors.keys()].some((key) => !untouched.has(key));
  const inRequest = dirty && changeRequest.holdsAdded(draftSignature(draft));
  // The rules on screen are the saved ones, in the same places, only while nothing is edited.
  const savedIndexes = savedRuleIndexes(control.rules);
  const rampOf = (ruleIndex: number | undefined): RampAction => ({
    onRamp: () => {
      if (ruleIndex !== undefined) setRamping(ruleIndex);
    },
    denial: dirty || ruleIndex === undefined ? RAMP_UNSAVED_REASON : null,
  });
  const rampedRule = ramping === null ? undefined : control.rules[ramping];
  if (targetsQuery.isPending) {
    return (
      <Stack gap="md" aria-busy="true" aria-label="Loading the targeting">
        <Skeleton height={120} />
        <Skeleton height={220} />
      </Stack>
    );
  }

  return (
    <Grid
      gap="lg"
      ref={root}
      // The feature page asks before it is left with edits that are not saved: it finds them by this
      // attribute (the page and this editor are separate features), which says what they change.
      data-unsaved-edits={dirty && !inRequest ? `the targeting for ${environment.name}` : undefined}
    >
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <Stack gap="md">
          {conflict ? (
            <TargetingConflicts
              conflict={conflict}
              draft={draft}
              variantNames={variantNames}
              onChoose={sync.choose}
              onDismiss={sync.dismiss}
            />
          ) : null}
          {failure ? <SaveFailureAlert failure={failure} /> : null}
          {changeRequest.refusal && !inRequest ? <ChangeRequestOffer reason={changeRequest.refusal} /> : null}
          {targetsQuery.isError ? (
            <Alert color="yellow" variant="light">
              The project’s targets could not be loaded; only the built-in ones are offered.
            </Alert>
          ) : null}
          {segmentsQuery.isError ? (
            <Alert color="yellow" variant="light">
              The environment’s segments could not be loaded; conditions on a segment cannot be chosen.
            </Alert>
          ) : null}
          <TargetingStatusCard
            enabled={draft.enabled}
            offVariantKey={draft.offVariantKey}
            variants={feature.variants}
            summary={describeRules(validation.wire, variantNames)}
            offVariantError={errors.get(fieldKey.offVariant)}
            onEnabledChange={(enabled) => edit({ ...draft, enabled })}
            onOffVariantChange={(offVariantKey) =>
              edit({ ...draft, offVariantKey }, { rules: ['offVariantKey'] })
            }
          />
          <div>
            <Title order={3} fz="lg">
              Rules
            </Title>
            <Text size="sm" c="dimmed">
              Rules are checked top to bottom; the first rule whose conditions all match decides.
            </Text>
          </div>
          {draft.rules.length === 0 ? (
            <Text size="sm" c="dimmed">
              No rules yet: everyone gets what “Otherwise” serves. Add a rule to treat some users differently.
            </Text>
          ) : null}
          {draft.rules.map((rule, index) => (
            <RuleCard
              key={rule.id}
              env={env}
              rule={rule}
              index={index}
              count={draft.rules.length}
              noEffect={validation.noEffect.has(rule.id)}
              ramp={rampOf(savedIndexes.targeted[index])}
              onChange={(next) => {
                edit(
                  { ...draft, rules: draft.rules.map((item) => (item.id === rule.id ? next : item)) },
                  { rules: [rule.id], conditions: rule.conditions.map((c) => c.id) },
                );
                const added = next.conditions.filter((c) => !rule.conditions.some((old) => old.id === c.id));
                if (added.length > 0) setUntouched((keys) => withFieldsOf(keys, added));
              }}
              onMove={(delta) => edit({ ...draft, rules: moveRule(draft.rules, rule.id, delta) })}
              onRemove={() =>
                edit(
                  { ...draft, rules: draft.rules.filter((item) => item.id !== rule.id) },
                  { rules: [rule.id], conditions: rule.conditions.map((c) => c.id) },
                )
              }
            />
          ))}
          <Group>
            <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={addRule}>
              Add rule
            </Button>
          </Group>
          <FallbackCard
            key={edition}
            env={env}
            serve={draft.fallback}
            onChange={(fallback) => edit({ ...draft, fallback }, { rules: ['fallback'] })}
            ramp={rampOf(savedIndexes.fallback)}
          />
          <SaveBar
            status={
              conflict && (conflict.theirs === null || conflict.parts.length > 0)
                ? 'conflict'
                : invalid
                  ? 'invalid'
                  : inRequest
                    ? 'requested'
                    : dirty
                      ? 'dirty'
                      : 'saved'
            }
            saving={save.isPending || changeRequest.isPending}
            saveLabel={changeRequest.throughRequest ? 'Add to change request' : 'Save'}
            canReset={dirty || failure !== null}
            onReset={reset}
            onSave={() => void submit()}
            comment={comment}
            onCommentChange={setComment}
          />
          {ramping !== null && rampedRule ? (
            <RampEditorModal
              feature={feature}
              environment={environment}
              ruleIndex={ramping}
              rule={rampedRule}
              ruleName={ruleNameOf(control.rules, ramping)}
              onClose={() => setRamping(null)}
            />
          ) : null}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <div className={classes.preview}>
          <RulePreview
            control={validation.preview}
            variants={feature.variants}
            targets={targets}
            usedTargets={usedTargets}
            targetedCount={draft.rules.length}
            typeOf={typeOf}
          />
        </div>
      </Grid.Col>
    </Grid>
  );
}
