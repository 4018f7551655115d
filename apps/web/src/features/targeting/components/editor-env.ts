import type { Segment, Target, TargetType, Variant } from '@vexil/core';
import type { FieldErrors } from './targeting-validation';

/** What every part of the rules editor reads: the project's targets, the environment's segments, errors. */
export type EditorEnv = {
  projectKey: string;
  targets: readonly Target[];
  segments: readonly Segment[];
  variants: readonly Pick<Variant, 'key' | 'name'>[];
  typeOf: (target: string) => TargetType;
  /** The errors to show: a field the user added is not marked until it is touched or a save is tried. */
  errors: FieldErrors;
  /** The user changed or left the field `key` (fieldKey): its error, if any, shows from now on. */
  touch: (key: string, by: 'change' | 'blur') => void;
  /** Opens the New target modal; null when the user may not create targets. */
  onCreateTarget: ((name: string) => Promise<Target | null>) | null;
};
