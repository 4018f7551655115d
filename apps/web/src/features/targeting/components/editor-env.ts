import type { Segment, Target, TargetType, Variant } from '@vexil/core';
import type { FieldErrors } from './targeting-validation';

/** What every part of the rules editor reads: the project's targets, the environment's segments, errors. */
export type EditorEnv = {
  projectKey: string;
  targets: readonly Target[];
  segments: readonly Segment[];
  variants: readonly Pick<Variant, 'key' | 'name'>[];
  typeOf: (target: string) => TargetType;
  errors: FieldErrors;
  /** Opens the New target modal; null when the user may not create targets. */
  onCreateTarget: ((name: string) => Promise<Target | null>) | null;
};
