import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';

/**
 * How much of the top bar keeps its names, from the roomiest to the tightest: every name; Log
 * out as an icon; the account link too; the Channels link too; smaller gaps and a shorter
 * classroom name; then the collapsed menu (a button opening the whole navigation with its names). The main navigation keeps its names until the
 * collapse, so it is never clipped.
 */
// Log out and the account (a user icon, known everywhere) become icons before Channels, a page
// whose icon alone says nothing: it lost its name first, at 1366 px in English (issue 27).
export const TOP_BAR_FIT_STEPS = [
  'full',
  'end-icons',
  'account-icon',
  'channels-icon',
  'tight',
  'collapsed',
];

const LAST_STEP = TOP_BAR_FIT_STEPS.length - 1;

/** The steps' CSS classes on the top bar: every step hides what the steps before it hid. */
export const topBarFitClass = (step: number) =>
  TOP_BAR_FIT_STEPS.slice(1, step + 1)
    .map((name) => `top-bar-fit-${name}`)
    .join(' ');

/**
 * The first step at which the bar's content fits its width, measured in the browser rather than
 * set by breakpoints: the names' lengths depend on the language, the user's name and the
 * classroom's. Measured again from the roomiest step when the bar's width or `content` (what the
 * names depend on) changes. (The app uses the system's fonts: no web font arrives later.)
 */
export const useTopBarFit = (
  content: string,
): { ref: RefObject<HTMLDivElement | null>; step: number } => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const measuredWidth = useRef(0);
  const key = `${content}|${width}`;
  const [fit, setFit] = useState({ key, step: 0 });
  // Something the widths depend on changed: start again from the roomiest step (during render).
  const current = fit.key === key ? fit : { key, step: 0 };
  if (current !== fit) setFit(current);

  // Step by step before the browser paints: a step that overflows moves on to the next.
  useLayoutEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    measuredWidth.current = bar.clientWidth;
    if (current.step >= LAST_STEP) return;
    if (bar.scrollWidth > bar.clientWidth + 1) setFit({ key: current.key, step: current.step + 1 });
  }, [current.key, current.step]);

  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    // Only a width other than the one measured starts again (not the observer's first call).
    const observer = new ResizeObserver(() => {
      if (bar.clientWidth !== measuredWidth.current) setWidth(bar.clientWidth);
    });
    observer.observe(bar);
    return () => observer.disconnect();
  }, []);

  return { ref, step: current.step };
};
