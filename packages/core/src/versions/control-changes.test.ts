import { describe, expect, it } from 'vitest';
import type { Operator } from '../schemas/targets';
import type { Rule } from '../schemas/targeting';
import type { ControlSnapshot } from '../schemas/versions';
import { controlChanges, type ChangeNames } from './control-changes';

/** A deep copy, as JSON carries it. */
const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const names: ChangeNames = {
  variants: { on: 'On', off: 'Off', control: 'Control' },
  targets: { country: 'Country', email: 'Email', age: 'Age', segments: 'Segments' },
  targetTypes: { country: 'string', email: 'string', age: 'number', segments: 'segment' },
};

const splits = (...shares: [string, number][]) =>
  shares.map(([variantKey, split]) => ({ variantKey, split }));

function rule(
  target: string,
  operator: Operator,
  values: (string | number)[],
  ...shares: [string, number][]
): Rule {
  return {
    defaultRule: false,
    audience: { conditions: [{ target, operator, values }] },
    variantSplits: splits(...shares),
  };
}

const otherwise = (...shares: [string, number][]): Rule => ({
  defaultRule: true,
  audience: null,
  variantSplits: splits(...shares),
});

const acme = rule('email', 'endsWith', ['@acme.com'], ['on', 100]);
const oceania = rule('country', 'in', ['NZ', 'AU'], ['on', 50], ['off', 50]);
const beta = rule('segments', 'in', ['beta-testers'], ['off', 100]);
const control: ControlSnapshot = {
  enabled: true,
  offVariantKey: 'off',
  rules: [acme, oceania, beta, otherwise(['on', 100])],
};
const withRules = (...rules: Rule[]): ControlSnapshot => ({ ...control, rules });

describe('controlChanges', () => {
  it('describes the first version by what it serves', () => {
    const created = { enabled: false, offVariantKey: 'off', rules: [otherwise(['on', 100])] };
    expect(controlChanges(null, created, names)).toEqual(['Created: off, everyone gets Off.']);
    expect(controlChanges(null, { ...created, enabled: true }, names)).toEqual([
      'Created: on, everyone gets On.',
    ]);
    expect(controlChanges(null, control, names)).toEqual(['Created: on, 3 targeting rules, otherwise On.']);
  });

  it('says when the control was turned on or off, and when its off variant changed', () => {
    expect(controlChanges(control, { ...control, enabled: false }, names)).toEqual(['Turned off']);
    expect(controlChanges({ ...control, enabled: false }, control, names)).toEqual(['Turned on']);
    expect(controlChanges(control, { ...control, offVariantKey: 'control' }, names)).toEqual([
      'Off variant: Off became Control',
    ]);
  });

  it('says what a rule served before and after when only its splits changed', () => {
    const after = withRules(
      acme,
      rule('country', 'in', ['NZ', 'AU'], ['on', 80], ['off', 20]),
      beta,
      otherwise(['on', 100]),
    );
    expect(controlChanges(control, after, names)).toEqual([
      'Rule 2: Country is one of NZ, AU → 50% On, 50% Off became 80% On, 20% Off',
    ]);
  });

  it('says who a rule was for before and after when only its audience changed', () => {
    const after = withRules(
      acme,
      rule('country', 'in', ['NZ'], ['on', 50], ['off', 50]),
      beta,
      otherwise(['on', 100]),
    );
    expect(controlChanges(control, after, names)).toEqual([
      'Rule 2: Country is one of NZ, AU became Country is one of NZ',
    ]);
  });

  it('says both when a rule changed its audience and its splits', () => {
    const after = withRules(acme, rule('country', 'in', ['NZ'], ['on', 100]), beta, otherwise(['on', 100]));
    expect(controlChanges(control, after, names)).toEqual([
      'Rule 2: Country is one of NZ, AU → 50% On, 50% Off became Country is one of NZ → On',
    ]);
  });

  it('numbers an added rule as it is now, and a removed one as it was', () => {
    expect(controlChanges(withRules(oceania, beta, otherwise(['on', 100])), control, names)).toEqual([
      'Rule 1 added: Email ends with @acme.com → On',
    ]);
    expect(
      controlChanges(control, withRules(acme, oceania, beta, acme, otherwise(['on', 100])), names),
    ).toEqual(['Rule 4 added: Email ends with @acme.com → On']);
    expect(controlChanges(control, withRules(oceania, beta, otherwise(['on', 100])), names)).toEqual([
      'Rule 1 removed: Email ends with @acme.com → On',
    ]);
  });

  it('tells an edited rule by its old and new numbers when a rule above it went', () => {
    const after = withRules(rule('country', 'in', ['NZ', 'AU'], ['on', 100]), beta, otherwise(['on', 100]));
    expect(controlChanges(control, after, names)).toEqual([
      'Rule 1 removed: Email ends with @acme.com → On',
      'Rule 2, now 1: Country is one of NZ, AU → 50% On, 50% Off became On',
    ]);
  });

  it('reads the same rules in another order as moves, not as every rule changed', () => {
    expect(controlChanges(control, withRules(beta, acme, oceania, otherwise(['on', 100])), names)).toEqual([
      'Rule 3 moved to 1: User is in beta-testers → Off',
    ]);
    expect(controlChanges(control, withRules(beta, oceania, acme, otherwise(['on', 100])), names)).toEqual([
      'Rule 3 moved to 1: User is in beta-testers → Off',
      'Rule 1 moved to 3: Email ends with @acme.com → On',
    ]);
  });

  it('says what the default rule served before and after', () => {
    const after = withRules(acme, oceania, beta, otherwise(['on', 50], ['off', 50]));
    expect(controlChanges(control, after, names)).toEqual(['Default rule: On became 50% On, 50% Off']);
  });

  it('shows every share, or keys and typed values, when the plain wording would read the same', () => {
    const zeroShare = withRules(acme, oceania, beta, otherwise(['on', 100], ['off', 0]));
    expect(controlChanges(control, zeroShare, names)).toEqual([
      'Default rule: 100% On became 100% On, 0% Off',
    ]);
    const text = { ...control, rules: [rule('age', 'equals', ['1'], ['on', 100]), otherwise(['on', 100])] };
    const number = { ...control, rules: [rule('age', 'equals', [1], ['on', 100]), otherwise(['on', 100])] };
    expect(controlChanges(text, number, names)).toEqual(['Rule 1: age equals "1" became age equals 1']);
  });

  it('says when only a rule’s stored priority changed', () => {
    const after = withRules({ ...acme, priority: 1 }, oceania, beta, otherwise(['on', 100]));
    expect(controlChanges(control, after, names)).toEqual(['Rule 1: priority none became 1']);
  });

  it('shows keys where no names are given, and built-in attributes by their names', () => {
    const dated = withRules(
      rule('featureflow.date', 'before', ['2027-01-01'], ['on', 100]),
      otherwise(['off', 100]),
    );
    expect(controlChanges({ ...dated, rules: [otherwise(['off', 100])] }, dated)).toEqual([
      'Rule 1 added: Current date is before 2027-01-01 → on',
    ]);
  });

  it('says several things in one version in reading order: switch, off variant, rules, default rule', () => {
    const after: ControlSnapshot = {
      enabled: false,
      offVariantKey: 'control',
      rules: [oceania, acme, otherwise(['control', 100])],
    };
    expect(controlChanges(control, after, names)).toEqual([
      'Turned off',
      'Off variant: Off became Control',
      'Rule 3 removed: User is in beta-testers → Off',
      'Rule 1 moved to 2: Email ends with @acme.com → On',
      'Default rule: On became Control',
    ]);
  });

  it('says nothing when the snapshots are equal as JSON, whatever their key order or undefined members', () => {
    const reordered: ControlSnapshot = {
      rules: control.rules.map((r) => ({
        variantSplits: r.variantSplits,
        audience: r.audience,
        priority: undefined,
        defaultRule: r.defaultRule,
      })),
      offVariantKey: 'off',
      enabled: true,
    };
    expect(controlChanges(control, reordered, names)).toEqual([]);
    expect(controlChanges(control, copyOf(control), names)).toEqual([]);
  });
});
