import type { ComponentProps } from 'react';
import { EnvironmentMenu } from './environment-menu';

/** Where the environment dropdown of docs/product.md §2 sits in the top navigation and its mobile drawer. */
export function EnvironmentSlot(props: ComponentProps<typeof EnvironmentMenu>) {
  return <EnvironmentMenu {...props} />;
}
