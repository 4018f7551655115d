import type { ReactNode } from 'react';
import { Title } from '@mantine/core';
import classes from './help-page.module.css';

/* The Help page's sections (help-page.tsx): their order for the table of contents, and their headings. */

/** The sections, in page order, for the table of contents; `sub` ones are indented under the one before. */
export const SECTIONS = [
  { id: 'getting-started', title: 'Getting started' },
  { id: 'connect-an-sdk', title: 'Connecting an SDK' },
  { id: 'node-sdk', title: 'Node SDK', sub: true },
  { id: 'browser-client', title: 'Browser client', sub: true },
  { id: 'ofrep', title: 'OpenFeature (OFREP)', sub: true },
  { id: 'targeting', title: 'Targeting' },
  { id: 'splits', title: 'Splits' },
  { id: 'segments', title: 'Segments' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];

/** A section's heading, which links to itself so its address can be copied or shared. */
export function Heading({ id, order = 2, children }: { id: SectionId; order?: 2 | 3; children: ReactNode }) {
  return (
    <Title order={order} id={id} className={classes.heading}>
      <a href={`#${id}`} className={classes.headingLink}>
        {children}
      </a>
    </Title>
  );
}
