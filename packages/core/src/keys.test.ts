import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ENVIRONMENT_KEY_PATTERN,
  FEATURE_KEY_PATTERN,
  ISSUE_KEY_MAX_LENGTH,
  KEY_MAX_LENGTH,
  ORGANISATION_DOMAIN_MAX_LENGTH,
  ORGANISATION_DOMAIN_PATTERN,
  PROJECT_KEY_PATTERN,
  TAG_MAX_LENGTH,
  TAG_PATTERN,
  normaliseEnvironmentKey,
  normaliseFeatureKey,
  normaliseGoalKey,
  normaliseIssueKey,
  normaliseOrganisationDomain,
  normaliseProjectKey,
  normaliseSegmentKey,
  normaliseTag,
  projectKeyFromName,
  typedOrganisationDomain,
  uniqueFeatureKey,
} from './keys';

// Mix of ASCII, accents, symbols, astral characters and NUL, to shake the normalisers.
const anyText = fc.string({ unit: 'binary', maxLength: 200 });
const keyish = fc.stringMatching(/^[a-z0-9]{1,6}$/);

describe('projectKeyFromName', () => {
  it.each([
    ['Mobile App', 'ma'],
    ['Checkout', 'check'],
    ['web', 'web'],
    ['Project 2', 'p2'],
    ['My Super Long Project Name Here', 'mslpn'],
    ['Café Crème', 'cc'],
    ['Été', 'ete'],
    ['  --  ', 'proj'],
    ['日本語', 'proj'],
  ])('abbreviates %j as %j', (name, key) => {
    expect(projectKeyFromName(name)).toBe(key);
  });

  it('adds a numeric suffix when the key is taken', () => {
    expect(projectKeyFromName('Mobile App', ['ma'])).toBe('ma1');
    expect(projectKeyFromName('Mobile App', ['ma', 'ma1'])).toBe('ma2');
  });

  it('shortens the stem so a suffixed key stays within 5 characters', () => {
    expect(projectKeyFromName('Checkout', ['check'])).toBe('chec1');
    expect(
      projectKeyFromName('Checkout', ['check', ...Array.from({ length: 9 }, (_, i) => `chec${i + 1}`)]),
    ).toBe('che10');
  });

  it('increments a trailing number instead of appending one', () => {
    expect(projectKeyFromName('Project 2', ['p2'])).toBe('p3');
  });

  it('compares existing keys case-insensitively', () => {
    expect(projectKeyFromName('Mobile App', ['MA'])).toBe('ma1');
  });

  it('always returns a free key of 1 to 5 lowercase letters or digits', () => {
    fc.assert(
      fc.property(anyText, fc.array(keyish, { maxLength: 30 }), (name, existing) => {
        const key = projectKeyFromName(name, existing);
        expect(key).toMatch(PROJECT_KEY_PATTERN);
        expect(existing).not.toContain(key);
      }),
    );
  });

  it('never returns a taken key even when the stem and its suffixes are all taken', () => {
    const taken = [
      'web',
      ...Array.from({ length: 120 }, (_, i) => `web${i + 1}`),
      ...Array.from({ length: 120 }, (_, i) => `we${i + 1}`),
    ];
    const key = projectKeyFromName('web', taken);
    expect(taken).not.toContain(key);
    expect(key).toMatch(PROJECT_KEY_PATTERN);
  });
});

describe('normaliseProjectKey', () => {
  it('lowercases, drops anything but letters and digits, and keeps 5 characters', () => {
    expect(normaliseProjectKey('My-Project!')).toBe('mypro');
    expect(normaliseProjectKey('AB 1')).toBe('ab1');
    expect(normaliseProjectKey('!!!')).toBe('');
  });

  it('is idempotent and yields an empty string or a valid key', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const key = normaliseProjectKey(input);
        expect(normaliseProjectKey(key)).toBe(key);
        expect(key === '' || PROJECT_KEY_PATTERN.test(key)).toBe(true);
      }),
    );
  });
});

describe('normaliseEnvironmentKey', () => {
  it('lowercases and turns each character outside [a-z0-9_] into a hyphen', () => {
    expect(normaliseEnvironmentKey('Production')).toBe('production');
    expect(normaliseEnvironmentKey('QA Env')).toBe('qa-env');
    expect(normaliseEnvironmentKey('my_env.1')).toBe('my_env-1');
    expect(normaliseEnvironmentKey('a  b')).toBe('a--b');
  });

  it('turns an accented letter into a hyphen instead of its plain letter', () => {
    expect(normaliseEnvironmentKey('Développement')).toBe('d-veloppement');
    expect(normaliseEnvironmentKey('Ça marche')).toBe('-a-marche');
    expect(normaliseEnvironmentKey('Größe')).toBe('gr--e');
    // The same letter typed as "e" and a combining accent is still one character.
    expect(normaliseEnvironmentKey('De\u0301veloppement')).toBe('d-veloppement');
  });

  it('maps each character: [a-z0-9_] lowercased and kept, anything else one hyphen', () => {
    const kept = fc.constantFrom(...'abcmxyzABCMXYZ0159_');
    // Characters outside [a-z0-9_] that lowercase to one character and never combine with a
    // neighbour: Latin-1 letters and signs, CJK ideographs, emoji (two UTF-16 units) and punctuation.
    const replaced = fc.oneof(
      fc.integer({ min: 0xc0, max: 0xff }).map((code) => String.fromCodePoint(code)),
      fc.integer({ min: 0x4e00, max: 0x9fff }).map((code) => String.fromCodePoint(code)),
      fc.integer({ min: 0x1f600, max: 0x1f64f }).map((code) => String.fromCodePoint(code)),
      fc.constantFrom(' ', '-', '.', '/', '#', '\t', '\u0000'),
    );
    const piece = fc.oneof(
      kept.map((c) => ({ c, expected: c.toLowerCase() })),
      replaced.map((c) => ({ c, expected: '-' })),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: KEY_MAX_LENGTH + 20 }), (pieces) => {
        const input = pieces.map((p) => p.c).join('');
        const expected = pieces
          .map((p) => p.expected)
          .join('')
          .slice(0, KEY_MAX_LENGTH);
        expect(normaliseEnvironmentKey(input)).toBe(expected);
      }),
    );
  });

  it('is idempotent, bounded and yields only [a-z0-9_-]', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const key = normaliseEnvironmentKey(input);
        expect(normaliseEnvironmentKey(key)).toBe(key);
        expect(key.length).toBeLessThanOrEqual(KEY_MAX_LENGTH);
        expect(key === '' || ENVIRONMENT_KEY_PATTERN.test(key)).toBe(true);
      }),
    );
  });
});

describe('normaliseFeatureKey', () => {
  it.each([
    ['New Checkout', 'new-checkout'],
    ['  New   Checkout!  ', 'new-checkout'],
    ['a--b__c', 'a-b__c'],
    ['-lead-and-trail-', 'lead-and-trail'],
    ['Crème brûlée', 'creme-brulee'],
    ['!!!', ''],
  ])('cleans %j to %j', (input, key) => {
    expect(normaliseFeatureKey(input)).toBe(key);
  });

  it('cuts long keys without leaving a trailing dash', () => {
    const key = normaliseFeatureKey(`${'a'.repeat(KEY_MAX_LENGTH - 1)} b`);
    expect(key).toBe('a'.repeat(KEY_MAX_LENGTH - 1));
  });

  it('is idempotent, bounded and yields only dash-separated [a-z0-9_] runs', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const key = normaliseFeatureKey(input);
        expect(normaliseFeatureKey(key)).toBe(key);
        expect(key.length).toBeLessThanOrEqual(KEY_MAX_LENGTH);
        expect(key === '' || FEATURE_KEY_PATTERN.test(key)).toBe(true);
      }),
    );
  });
});

describe('uniqueFeatureKey', () => {
  it('returns a free key unchanged', () => {
    expect(uniqueFeatureKey('checkout', ['other'])).toBe('checkout');
  });

  it('appends 1 to a taken key without a trailing number, then counts up', () => {
    expect(uniqueFeatureKey('checkout', ['checkout'])).toBe('checkout1');
    expect(uniqueFeatureKey('checkout', ['checkout', 'checkout1'])).toBe('checkout2');
  });

  it('increments a trailing number', () => {
    expect(uniqueFeatureKey('a1', ['a1'])).toBe('a2');
    expect(uniqueFeatureKey('a9', ['a9'])).toBe('a10');
    expect(uniqueFeatureKey('release-2', ['release-2', 'release-3'])).toBe('release-4');
  });

  it('keeps zero padding', () => {
    expect(uniqueFeatureKey('v09', ['v09'])).toBe('v10');
    expect(uniqueFeatureKey('v007', ['v007'])).toBe('v008');
  });

  it('handles trailing numbers beyond double precision', () => {
    expect(uniqueFeatureKey('a99999999999999999999', ['a99999999999999999999'])).toBe(
      'a100000000000000000000',
    );
  });

  it('cleans the key first and falls back to "feature" when nothing is left', () => {
    expect(uniqueFeatureKey('New Checkout', [])).toBe('new-checkout');
    expect(uniqueFeatureKey('!!!', ['feature'])).toBe('feature1');
  });

  it('stays within the key length by shortening the stem', () => {
    const long = 'a'.repeat(KEY_MAX_LENGTH);
    expect(uniqueFeatureKey(long, [long])).toBe(`${'a'.repeat(KEY_MAX_LENGTH - 1)}1`);
  });

  it('never returns an existing key and always returns a valid bounded key', () => {
    fc.assert(
      fc.property(
        fc.oneof(anyText, keyish),
        fc.array(
          fc.oneof(
            keyish,
            keyish.map((k) => `${k}1`),
          ),
          { maxLength: 40 },
        ),
        (key, existing) => {
          const taken = [...existing, normaliseFeatureKey(key)];
          const result = uniqueFeatureKey(key, taken);
          expect(taken).not.toContain(result);
          expect(result).toMatch(FEATURE_KEY_PATTERN);
          expect(result.length).toBeLessThanOrEqual(KEY_MAX_LENGTH);
        },
      ),
    );
  });

  it('returns the cleaned key itself whenever it is free', () => {
    fc.assert(
      fc.property(keyish, fc.array(keyish, { maxLength: 10 }), (key, existing) => {
        fc.pre(!existing.includes(key));
        expect(uniqueFeatureKey(key, existing)).toBe(key);
      }),
    );
  });
});

describe('normaliseSegmentKey and normaliseGoalKey', () => {
  it('clean like feature keys', () => {
    expect(normaliseSegmentKey('Beta Users')).toBe('beta-users');
    expect(normaliseGoalKey('Added To Cart!')).toBe('added-to-cart');
    fc.assert(
      fc.property(anyText, (input) => {
        expect(normaliseSegmentKey(input)).toBe(normaliseFeatureKey(input));
        expect(normaliseGoalKey(input)).toBe(normaliseFeatureKey(input));
      }),
    );
  });
});

describe('normaliseIssueKey', () => {
  it('uppercases Jira keys and joins parts with one dash', () => {
    expect(normaliseIssueKey('abc-123')).toBe('ABC-123');
    expect(normaliseIssueKey(' abc 123 ')).toBe('ABC-123');
    expect(normaliseIssueKey('abc--123')).toBe('ABC-123');
  });

  it('is idempotent and bounded', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const key = normaliseIssueKey(input);
        expect(normaliseIssueKey(key)).toBe(key);
        expect(key.length).toBeLessThanOrEqual(ISSUE_KEY_MAX_LENGTH);
        expect(key).toMatch(/^(?:[A-Z0-9_]+(?:-[A-Z0-9_]+)*)?$/);
      }),
    );
  });
});

describe('normaliseTag', () => {
  it('lowercases and dashes tags', () => {
    expect(normaliseTag(' Team A ')).toBe('team-a');
  });

  it('is idempotent, bounded and matches the tag pattern', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const tag = normaliseTag(input);
        expect(normaliseTag(tag)).toBe(tag);
        expect(tag.length).toBeLessThanOrEqual(TAG_MAX_LENGTH);
        expect(tag === '' || TAG_PATTERN.test(tag)).toBe(true);
      }),
    );
  });
});

describe('normaliseOrganisationDomain', () => {
  it('keeps lowercase letters, digits and single inner hyphens', () => {
    expect(normaliseOrganisationDomain('Acme Corp')).toBe('acme-corp');
    expect(normaliseOrganisationDomain('--ACME__corp--')).toBe('acme-corp');
  });

  it('is idempotent and yields a DNS label', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const domain = normaliseOrganisationDomain(input);
        expect(normaliseOrganisationDomain(domain)).toBe(domain);
        expect(domain.length).toBeLessThanOrEqual(ORGANISATION_DOMAIN_MAX_LENGTH);
        expect(domain === '' || ORGANISATION_DOMAIN_PATTERN.test(domain)).toBe(true);
      }),
    );
  });
});

describe('typedOrganisationDomain', () => {
  /** What the field holds after `text` is typed into it one character at a time. */
  const typedKeyByKey = (text: string) =>
    Array.from(text).reduce((field, character) => typedOrganisationDomain(field + character), '');

  it('shows a separator as the hyphen it becomes, so that the next word follows it', () => {
    expect(typedKeyByKey('Ab C!')).toBe('ab-c-');
    expect(typedKeyByKey('Ab C')).toBe('ab-c');
    expect(typedOrganisationDomain(' -Acme  Corp')).toBe('acme-corp');
  });

  it('typed key by key, normalises to the domain of the whole text', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        expect(normaliseOrganisationDomain(typedKeyByKey(input))).toBe(normaliseOrganisationDomain(input));
        expect(normaliseOrganisationDomain(typedOrganisationDomain(input))).toBe(
          normaliseOrganisationDomain(input),
        );
      }),
    );
  });

  it('is idempotent and differs from the domain by at most a trailing hyphen', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const typed = typedOrganisationDomain(input);
        expect(typedOrganisationDomain(typed)).toBe(typed);
        expect(typed.replace(/-$/, '')).toBe(normaliseOrganisationDomain(input));
        expect(typed.length).toBeLessThanOrEqual(ORGANISATION_DOMAIN_MAX_LENGTH);
        expect(/^(?:[a-z0-9]+-)*[a-z0-9]*$/.test(typed)).toBe(true);
      }),
    );
  });
});
