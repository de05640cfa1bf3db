// Spec §9 "Score wording bands": a figure is shown with the words of the band it falls in.
// Each list holds the bands' upper bounds, inclusive; a value above the last bound is in one more
// band ("and beyond"). The words are `scores.<kind>.<band>` in locales/.

export const SCORE_BANDS = {
  /** Rates shown as period stats (the dashboard's engagement rate): 10/30/50/70/90/100. */
  stats: [10, 30, 50, 70, 90, 100],
  /** Completion rates: 10 to 100 in steps of 10. */
  completion: [10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
  /** Total courses: 5/15/40/80 and beyond. */
  totalCourses: [5, 15, 40, 80],
  /** Learner effectiveness (assessment success): 25/50/75/100. */
  effectiveness: [25, 50, 75, 100],
} as const satisfies Record<string, readonly number[]>;

export type TScoreKind = keyof typeof SCORE_BANDS;

/** How many wordings a kind has: one per bound, plus "beyond" where values can exceed the last. */
export const scoreBandCount = (kind: TScoreKind): number =>
  SCORE_BANDS[kind].length + (kind === 'totalCourses' ? 1 : 0);

/** The band (0-based) of a value: the first whose upper bound it does not exceed. */
export const scoreBand = (kind: TScoreKind, value: number): number => {
  const bounds: readonly number[] = SCORE_BANDS[kind];
  const index = bounds.findIndex((bound) => value <= bound);
  return index === -1 ? scoreBandCount(kind) - 1 : index;
};
