/**
 * Key normalisation for projects, environments, features, segments, goals, issue keys, tags
 * and organisation domains (docs/product.md §4, §5, §9).
 *
 * Every `normalise*` function is total (any string in, a valid-or-empty key out) and idempotent,
 * so the dashboard can apply it as the user types and the server can apply it again on the
 * request body without changing an already clean key.
 */

/** Project keys are short abbreviations (docs/product.md §9). */
export const PROJECT_KEY_MAX_LENGTH = 5;
/** Upper bound for environment, feature, segment, goal and target keys. */
export const KEY_MAX_LENGTH = 100;
/** Upper bound for a tag. */
export const TAG_MAX_LENGTH = 50;
/** Upper bound for an issue-tracker key such as `ABC-123`. */
export const ISSUE_KEY_MAX_LENGTH = 50;
/** Organisation domains: at least 4 characters (docs/product.md §5), at most one DNS label. */
export const ORGANISATION_DOMAIN_MIN_LENGTH = 4;
/** A DNS label holds at most 63 characters. */
export const ORGANISATION_DOMAIN_MAX_LENGTH = 63;

/** Used by {@link projectKeyFromName} when a name has no usable letter or digit. */
export const FALLBACK_PROJECT_KEY = 'proj';
/** Used by {@link uniqueFeatureKey} when the key is empty after cleaning. */
export const FALLBACK_FEATURE_KEY = 'feature';

/** A normalised project key: 1 to 5 lowercase letters or digits. */
export const PROJECT_KEY_PATTERN = /^[a-z0-9]{1,5}$/;
/** A normalised environment key: lowercase letters, digits, `_` and `-`. */
export const ENVIRONMENT_KEY_PATTERN = /^[a-z0-9_-]+$/;
/** A normalised feature, segment or goal key: dash-separated runs of `[a-z0-9_]`. */
export const FEATURE_KEY_PATTERN = /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/;
/** A normalised tag follows the feature-key shape. */
export const TAG_PATTERN = FEATURE_KEY_PATTERN;
/** A Jira-style issue key: project key, dash, issue number. */
export const ISSUE_KEY_PATTERN = /^[A-Z][A-Z0-9_]*-[1-9][0-9]*$/;
/** A normalised organisation domain: a DNS label of lowercase letters, digits and hyphens. */
export const ORGANISATION_DOMAIN_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// NFKD splits accented letters into base letter + combining mark, so "Café" keeps its "e"
// instead of turning it into a separator.
function foldToAscii(input: string): string {
  return input.normalize('NFKD').replace(/\p{M}/gu, '');
}

// Truncation can leave a trailing separator that the untruncated key would not have had.
function truncateKey(key: string, maxLength: number): string {
  return key.length <= maxLength ? key : key.slice(0, maxLength).replace(/-+$/, '');
}

function dashedKey(input: string, maxLength: number): string {
  const cleaned = foldToAscii(input)
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return truncateKey(cleaned, maxLength);
}

/**
 * Returns `base` if it is free, otherwise the first free key made by incrementing the trailing
 * number of `base` (keeping its zero padding: `v09` → `v10`, `a1` → `a2`) or, when `base` has
 * none, by appending one starting at `1` (`checkout` → `checkout1`). When the candidate would
 * exceed `maxLength`, the stem is shortened so the number still fits; only once the number
 * alone is longer than `maxLength` does the result exceed it.
 */
function firstFreeKey(base: string, taken: ReadonlySet<string>, maxLength: number): string {
  if (!taken.has(base)) return base;
  const match = /^(.*?)(\d+)$/.exec(base);
  const stem = match ? (match[1] ?? '') : base;
  const width = match ? (match[2] ?? '').length : 1;
  // BigInt: a pasted key may end in more digits than a double holds exactly.
  let n = match ? BigInt(match[2] ?? '0') + 1n : 1n;
  for (;;) {
    const digits = n.toString().padStart(width, '0');
    const candidate = stem.slice(0, Math.max(0, maxLength - digits.length)) + digits;
    if (!taken.has(candidate)) return candidate;
    n += 1n;
  }
}

/**
 * Cleans a typed project key: diacritics folded to ASCII, lowercased, everything outside
 * `[a-z0-9]` removed, cut to 5 characters. May return `''`.
 */
export function normaliseProjectKey(input: string): string {
  return foldToAscii(input)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, PROJECT_KEY_MAX_LENGTH);
}

/**
 * Derives a project key from a project name (docs/product.md §4: the key follows the name until edited).
 *
 * Abbreviation rule: the name is folded to ASCII, lowercased and split into words on anything
 * that is not a letter or digit. A multi-word name gives the initials of its first five words
 * (`Mobile App` → `ma`, `Project 2` → `p2`); a one-word name gives its first five characters
 * (`Checkout` → `check`); a name with no letters or digits gives `proj`.
 *
 * When the key is in `existingKeys`, a numeric suffix is added (or the trailing number
 * incremented), shortening the stem to stay within 5 characters: `check` → `chec1`,
 * `ma` → `ma1`, `p2` → `p3`.
 */
export function projectKeyFromName(name: string, existingKeys: Iterable<string> = []): string {
  const words = foldToAscii(name)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
  const base =
    words.length === 0
      ? FALLBACK_PROJECT_KEY
      : words.length === 1
        ? (words[0] ?? '').slice(0, PROJECT_KEY_MAX_LENGTH)
        : words
            .map((word) => word[0])
            .join('')
            .slice(0, PROJECT_KEY_MAX_LENGTH);
  const taken = new Set([...existingKeys].map(normaliseProjectKey));
  return firstFreeKey(base, taken, PROJECT_KEY_MAX_LENGTH);
}

/**
 * Cleans an environment key exactly as docs/product.md §5 says: lowercased, every character outside
 * `[a-z0-9_]` replaced by one hyphen each (no collapsing, so typing stays predictable), cut to
 * {@link KEY_MAX_LENGTH}. Unlike the other keys, accented letters are not folded: they are characters
 * outside `[a-z0-9_]` like any other (`Développement` → `d-veloppement`). The text is composed (NFC)
 * first so that a letter counts as one character however the keyboard encoded its accent.
 */
export function normaliseEnvironmentKey(input: string): string {
  return input
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^a-z0-9_]/gu, '-')
    .slice(0, KEY_MAX_LENGTH);
}

/**
 * Cleans a feature key: diacritics folded, lowercased, every run of characters outside
 * `[a-z0-9_]` (spaces, punctuation, dashes) becomes a single `-`, leading and trailing dashes
 * are dropped, and the result is cut to {@link KEY_MAX_LENGTH}. `New Checkout!` → `new-checkout`.
 *
 * Because trailing dashes are dropped, apply it to a name as the user types, or to a typed key
 * on blur/submit, not keystroke by keystroke in the key field itself.
 */
export function normaliseFeatureKey(input: string): string {
  return dashedKey(input, KEY_MAX_LENGTH);
}

/**
 * Makes a feature key unique against `existingKeys` (docs/product.md §5: "appending or incrementing a
 * trailing number"). The key is cleaned with {@link normaliseFeatureKey} first (an empty result
 * becomes `feature`). A free key is returned as is; otherwise a trailing number is incremented
 * (`a1` → `a2`, `v09` → `v10`) or, when there is none, `1` is appended (`checkout` →
 * `checkout1`, then `checkout2`). The result never exceeds {@link KEY_MAX_LENGTH}.
 */
export function uniqueFeatureKey(key: string, existingKeys: Iterable<string>): string {
  const base = normaliseFeatureKey(key) || FALLBACK_FEATURE_KEY;
  return firstFreeKey(base, new Set(existingKeys), KEY_MAX_LENGTH);
}

/** Cleans a segment key with the feature-key rule (docs/product.md §5 leaves the exact rule open). */
export function normaliseSegmentKey(input: string): string {
  return dashedKey(input, KEY_MAX_LENGTH);
}

/** Cleans an experiment goal key with the feature-key rule, matching what SDKs send. */
export function normaliseGoalKey(input: string): string {
  return dashedKey(input, KEY_MAX_LENGTH);
}

/**
 * Cleans an issue-tracker key: uppercased, runs of characters outside `[A-Z0-9_]` become one
 * `-`, outer dashes dropped: ` abc 123 ` → `ABC-123`. The result may still fail
 * {@link ISSUE_KEY_PATTERN} (e.g. `ABC`); validation reports that.
 */
export function normaliseIssueKey(input: string): string {
  const cleaned = foldToAscii(input)
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return truncateKey(cleaned, ISSUE_KEY_MAX_LENGTH);
}

/** Cleans a tag with the feature-key rule, cut to {@link TAG_MAX_LENGTH}: `Team A` → `team-a`. */
export function normaliseTag(input: string): string {
  return dashedKey(input, TAG_MAX_LENGTH);
}

/**
 * Cleans an organisation sub-domain (docs/product.md §5): lowercase letters, digits and single hyphens,
 * no leading or trailing hyphen, at most 63 characters. `Acme Corp` → `acme-corp`.
 */
export function normaliseOrganisationDomain(input: string): string {
  const cleaned = foldToAscii(input)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return truncateKey(cleaned, ORGANISATION_DOMAIN_MAX_LENGTH);
}

/**
 * An organisation sub-domain as it is being typed: {@link normaliseOrganisationDomain} except that one
 * trailing hyphen is kept, so that a space or dot typed between two words shows as the hyphen it
 * becomes and the next letter follows it (`Ab ` → `ab-`, then `ab-c`). Typing key by key and
 * normalising the end result gives the same domain as normalising the whole text at once.
 */
export function typedOrganisationDomain(input: string): string {
  return foldToAscii(input)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, ORGANISATION_DOMAIN_MAX_LENGTH);
}
