import { useEffect, useState, type ReactElement, type RefCallback } from 'react';
import { Text, Tooltip, type TextProps } from '@mantine/core';
import classes from './truncated-text.module.css';

/** What the element holding the text gets from {@link TruncatedText}. */
export type TruncatedTargetProps = {
  ref: RefCallback<HTMLElement>;
  className: string | undefined;
};

export type TruncatedTextProps = Omit<TextProps, 'truncate'> & {
  /** The whole text: what the cell shows, cut if need be, and what the tooltip shows. */
  text: string;
  /**
   * Renders the element holding the text (a link, a code span) with these props, instead of a Text
   * with the other props.
   */
  render?: (props: TruncatedTargetProps) => ReactElement;
};

/** The tooltip's own width limit: a name without spaces wraps anywhere within it, even on a phone. */
const TOOLTIP_MAX_WIDTH = 'min(420px, calc(100vw - 32px))';

/*
 * One observer for every cell (a page of the feature list has up to 500 rows, two cut texts each): it
 * calls back the cell whose box changed, so that a cell knows when its text starts or stops being cut.
 */
const remeasure = new WeakMap<Element, () => void>();
let observer: ResizeObserver | undefined;

function watchSize(element: Element, measure: () => void): () => void {
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) remeasure.get(entry.target)?.();
  });
  remeasure.set(element, measure);
  observer.observe(element);
  return () => {
    remeasure.delete(element);
    observer?.unobserve(element);
  };
}

/**
 * A user-given name (or key) in a table cell, on one line: cut with an ellipsis at the cell's edge, so
 * that a long name without spaces neither widens its column nor runs into the next cell; once cut, the
 * whole text shows in a tooltip on hover and on keyboard focus (plain text then takes focus itself).
 * The table keeps its columns' widths with `layout="fixed"`.
 */
export function TruncatedText({ text, render, ...textProps }: TruncatedTextProps) {
  const [cut, setCut] = useState(false);
  const [element, setElement] = useState<HTMLElement | null>(null);
  // Measured whenever the element's box changes (a narrower window, a column fitting) and for new text.
  useEffect(() => {
    if (!element) return;
    const measure = () => setCut(element.scrollWidth > element.clientWidth);
    measure();
    return watchSize(element, measure);
  }, [element, text]);
  const target = { ref: setElement, className: classes.truncated };
  const shown = render ? (
    render(target)
  ) : (
    <Text size="sm" {...textProps} {...target} tabIndex={cut ? 0 : undefined}>
      {text}
    </Text>
  );
  // Most texts fit: only a cut one carries a tooltip, which long lists would otherwise pay for per row.
  if (!cut) return shown;
  return (
    <Tooltip
      label={text}
      events={{ hover: true, focus: true, touch: true }}
      multiline
      maw={TOOLTIP_MAX_WIDTH}
      withArrow
      classNames={{ tooltip: classes.tooltip }}
    >
      {shown}
    </Tooltip>
  );
}
