'use client';

import { useRef } from 'react';

/** Keys that change a closed select's value one step at a time: browsing, not choosing. */
const BROWSING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * A select that submits its GET form when a choice is made (with JavaScript); without JavaScript the form's
 * <noscript> Apply button does the same. A choice made with the mouse or from the open list submits at once. Arrow
 * keys on the closed select only move the value (a reload per step would lose the place): Enter, or leaving the
 * select, then submits what was reached.
 */
export function AutoSubmitSelect({
  id,
  name,
  defaultValue,
  className,
  options,
}: {
  id: string;
  name: string;
  defaultValue: string;
  className?: string;
  options: { value: string; label: string }[];
}) {
  const browsing = useRef(false);
  const pending = useRef(false);
  const submit = (select: HTMLSelectElement) => {
    pending.current = false;
    select.form?.requestSubmit();
  };
  return (
    <select
      id={id}
      name={name}
      defaultValue={defaultValue}
      className={className}
      onKeyDown={(e) => {
        if (BROWSING_KEYS.has(e.key)) browsing.current = true;
        else if (e.key === 'Enter' && pending.current) {
          e.preventDefault();
          submit(e.currentTarget);
        }
      }}
      onChange={(e) => {
        if (browsing.current) {
          browsing.current = false;
          pending.current = true;
          return;
        }
        submit(e.currentTarget);
      }}
      onBlur={(e) => {
        browsing.current = false;
        if (pending.current) submit(e.currentTarget);
      }}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
