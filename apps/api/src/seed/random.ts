// A small seeded PRNG so the demo is the same on every machine and every run.

export type Random = {
  /** A float in [0, 1). */
  next: () => number;
  /** An integer in [min, max], both included. */
  int: (min: number, max: number) => number;
  /** True with the given probability. */
  chance: (probability: number) => boolean;
  pick: <T>(items: readonly T[]) => T;
  /** Picks by weight; weights need not sum to 1. */
  weighted: <T>(items: readonly (readonly [T, number])[]) => T;
  /** A version-4 shaped uuid drawn from the stream. */
  uuid: () => string;
};

/** mulberry32: 32-bit state, good enough spread for fixtures, and tiny. */
export const createRandom = (seed: number): Random => {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(next() * items.length)] as T;
  };
  const weighted = <T>(items: readonly (readonly [T, number])[]): T => {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return pick(items)[0];
  };
  const hex = (digits: number) => {
    let out = '';
    while (out.length < digits) out += Math.floor(next() * 16).toString(16);
    return out;
  };
  const uuid = () =>
    `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[int(0, 3)] ?? '8'}${hex(3)}-${hex(12)}`;
  return { next, int, chance: (probability) => next() < probability, pick, weighted, uuid };
};
