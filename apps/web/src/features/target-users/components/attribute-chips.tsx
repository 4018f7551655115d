import { useState } from 'react';
import { Button, Group, Text, Tooltip } from '@mantine/core';
import type { ReportedAttribute } from '../../../entities/target-users/api/get-target-users';
import classes from './attribute-chips.module.css';

/** Values (and keys) longer than this are cut short, with the whole text in a tooltip. */
export const ATTRIBUTE_TEXT_MAX = 40;
/** A user shows this many attributes; the rest wait behind "+N more". */
export const ATTRIBUTES_SHOWN = 8;

/** An attribute value as text: lists joined with commas, null as "null". */
export function formatAttributeValue(value: ReportedAttribute): string {
  if (Array.isArray(value)) return value.map((item) => String(item)).join(', ');
  return String(value);
}

function shorten(text: string): string {
  return text.length > ATTRIBUTE_TEXT_MAX ? `${text.slice(0, ATTRIBUTE_TEXT_MAX - 1)}…` : text;
}

function AttributeChip({ name, value }: { name: string; value: ReportedAttribute }) {
  const text = formatAttributeValue(value);
  const absent = value === null || text === '';
  const shownValue = value === null ? 'null' : text === '' ? 'empty' : shorten(text);
  const shownName = shorten(name);
  const chip = (
    <span className={classes.chip} data-testid="attribute-chip">
      <span className={classes.key}>{shownName}:</span>
      <span className={absent ? `${classes.value} ${classes.absent}` : classes.value}>{shownValue}</span>
    </span>
  );
  if (shownValue === text && shownName === name) return chip;
  return (
    <Tooltip label={`${name}: ${text}`} multiline maw={420} withArrow style={{ overflowWrap: 'anywhere' }}>
      {chip}
    </Tooltip>
  );
}

/**
 * A user's attributes as "key: value" chips, by key. Lists are joined with commas; long text is cut
 * short with the whole in a tooltip; past {@link ATTRIBUTES_SHOWN} the rest open on request.
 */
export function AttributeChips({ attributes }: { attributes: Record<string, ReportedAttribute> }) {
  const [expanded, setExpanded] = useState(false);
  const entries = Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No attributes
      </Text>
    );
  }
  const hidden = expanded ? 0 : Math.max(0, entries.length - ATTRIBUTES_SHOWN);
  const shown = hidden > 0 ? entries.slice(0, ATTRIBUTES_SHOWN) : entries;
  return (
    <Group gap={6} wrap="wrap">
      {shown.map(([name, value]) => (
        <AttributeChip key={name} name={name} value={value} />
      ))}
      {entries.length > ATTRIBUTES_SHOWN ? (
        <Button variant="subtle" size="compact-xs" onClick={() => setExpanded(!expanded)}>
          {hidden > 0 ? `+${hidden} more` : 'Show fewer'}
        </Button>
      ) : null}
    </Group>
  );
}
