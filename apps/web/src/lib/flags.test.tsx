import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { FlagGate, FlagsProvider, useFlag } from './flags';

function Probe() {
  return <span>{useFlag('profile') ? 'profile on' : 'profile off'}</span>;
}

describe('useFlag', () => {
  it('reads the provided flags', () => {
    render(
      <FlagsProvider flags={{ profile: true }}>
        <Probe />
      </FlagsProvider>,
    );
    expect(screen.getByText('profile on')).toBeVisible();
  });

  it('treats an absent flag, or no provider, as off', () => {
    render(<Probe />);
    expect(screen.getByText('profile off')).toBeVisible();
  });

  it('gates children with FlagGate', () => {
    render(
      <FlagsProvider flags={{ home: false, segments: true }}>
        <FlagGate flag="home">Home link</FlagGate>
        <FlagGate flag="segments">Segments link</FlagGate>
      </FlagsProvider>,
    );
    expect(screen.queryByText('Home link')).toBeNull();
    expect(screen.getByText('Segments link')).toBeVisible();
  });
});
