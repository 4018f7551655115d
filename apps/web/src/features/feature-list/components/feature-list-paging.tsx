import { useId } from 'react';
import { Group, NativeSelect, Pagination, Text } from '@mantine/core';
import { FEATURE_PAGE_SIZES } from '@vexil/core';
import type { FeaturePageSize } from '../../../entities/features/api/get-environment-features';
import classes from './feature-list.module.css';

export type FeatureListPagingProps = {
  /** Counts from 1. */
  page: number;
  pageSize: FeaturePageSize;
  totalElements: number;
  /** Rows on this page. */
  shown: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: FeaturePageSize) => void;
};

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/** "Showing 1–50 of 120", the pages, and the page size (docs/product.md §9: 50, 100 or 500). */
export function FeatureListPaging({
  page,
  pageSize,
  totalElements,
  shown,
  onPage,
  onPageSize,
}: FeatureListPagingProps) {
  const sizeId = useId();
  const pages = Math.max(1, Math.ceil(totalElements / pageSize));
  const from = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = shown === 0 ? 0 : from + shown - 1;
  return (
    <Group justify="space-between" gap="md" className={classes.footer}>
      <Text size="sm" c="dimmed" aria-live="polite">
        Showing {from}–{to} of {totalElements.toLocaleString('en')}
      </Text>
      <Group gap="lg">
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={onPage}
          size="sm"
          hideWithOnePage
          getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
          getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
        />
        <Group gap={8} wrap="nowrap">
          <Text component="label" htmlFor={sizeId} size="sm" c="dimmed">
            Per page
          </Text>
          <NativeSelect
            id={sizeId}
            size="xs"
            w={76}
            data={FEATURE_PAGE_SIZES.map(String)}
            value={String(pageSize)}
            onChange={(event) => onPageSize(Number(event.currentTarget.value) as FeaturePageSize)}
          />
        </Group>
      </Group>
    </Group>
  );
}
