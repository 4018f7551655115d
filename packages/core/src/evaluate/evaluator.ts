import {
  bucketPrefixWith,
  bucketWith,
  keyDigestOf,
  pureKeyDigest,
  type KeyDigest,
  type Sha1,
} from './bucket';
import { clientRulesWith, type ClientRule } from './client-rules';
import { evaluateWith, type EvaluableControl, type Evaluation, type EvaluationUser } from './engine';

/**
 * The engine with one SHA-1 for bucketing, given when it is made: the browser's and the tests' use
 * core's pure JavaScript one; the server makes its own with a faster one
 * (docs/adr/0004-core-dependencies-for-evaluation.md). Evaluators hold no state but their digest, so
 * two with different digests never change each other's answers, whichever was made first.
 */
export type Evaluator = {
  /** The digest this evaluator buckets with. */
  readonly digest: KeyDigest;
  /** One control for one user at `now` (docs/sdk-protocol.md §9; `evaluateWith` in engine.ts). */
  evaluate(control: EvaluableControl, user: EvaluationUser, now: Date): Evaluation;
  /** What the JS client endpoint sends for one control and user (`clientRulesWith` in client-rules.ts). */
  clientRules(
    control: EvaluableControl,
    user: EvaluationUser,
    now: Date,
    valueOf?: (variant: string) => unknown,
  ): { rules: ClientRule[] };
  /** The bucket 1..100 of a user for a feature (docs/sdk-protocol.md §9.1). */
  bucketOf(salt: string, featureKey: string, userId: string): number;
  /** The 15-hex-digit prefix the bucket is read from (test vectors, debugging). */
  bucketPrefix(salt: string, featureKey: string, userId: string): string;
};

/**
 * An evaluator hashing with `digest` (the three parts of `salt:featureKey:userId`), or `sha1` (of the
 * joined text); core's pure SHA-1 when neither is given. Either must compute SHA-1: `bucketOf`
 * answers exactly what every SDK does.
 */
export function createEvaluator(options: { digest?: KeyDigest; sha1?: Sha1 } = {}): Evaluator {
  const digest = options.digest ?? (options.sha1 ? keyDigestOf(options.sha1) : pureKeyDigest);
  return {
    digest,
    evaluate: (control, user, now) => evaluateWith(digest, control, user, now),
    clientRules: (control, user, now, valueOf) => clientRulesWith(digest, control, user, now, valueOf),
    bucketOf: (salt, featureKey, userId) => bucketWith(digest, salt, featureKey, userId),
    bucketPrefix: (salt, featureKey, userId) => bucketPrefixWith(digest, salt, featureKey, userId),
  };
}

/** The evaluator with core's pure JavaScript SHA-1: the browser's, and the tests'. */
export const pureEvaluator: Evaluator = createEvaluator();

/** `pureEvaluator`'s methods, for code that evaluates with core's own SHA-1 (tests, the browser). */
export const { evaluate, clientRules, bucketOf, bucketPrefix } = pureEvaluator;
