import { encodePng } from '../../../lib/png.ts';

// The Teams app's two icons, drawn here rather than shipped as files (the bundle has no asset
// step): a chat bubble holding a check mark, the lesson answered. Microsoft's rules
// (https://learn.microsoft.com/en-us/microsoftteams/platform/concepts/design/design-teams-app-icon-store-appbar):
// the colour icon is a full-bleed 192×192 square whose symbol stays inside the central 120×120
// safe area; the outline icon is 32×32, white on a transparent background
// (https://learn.microsoft.com/en-us/microsoft-365/extensibility/schema/root-icons).

/** The app's accent colour (the web app's primary colour), also the manifest's accentColor. */
export const TEAMS_ACCENT_COLOR = '#3B5BDB';

type Point = readonly [number, number];

const dot = (a: Point, b: Point) => a[0] * b[0] + a[1] * b[1];
const minus = (a: Point, b: Point): Point => [a[0] - b[0], a[1] - b[1]];
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

// Signed distances on the unit square (negative inside), after Inigo Quilez's 2D distance
// functions: shapes stay crisp at any size and an outline is just |distance| < half its width.
const roundedBox = (p: Point, centre: Point, half: Point, radius: number) => {
  const qx = Math.abs(p[0] - centre[0]) - half[0] + radius;
  const qy = Math.abs(p[1] - centre[1]) - half[1] + radius;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
};

const segment = (p: Point, a: Point, b: Point) => {
  const pa = minus(p, a);
  const ba = minus(b, a);
  const along = clamp01(dot(pa, ba) / dot(ba, ba));
  return Math.hypot(pa[0] - ba[0] * along, pa[1] - ba[1] * along);
};

const triangle = (p: Point, corners: readonly [Point, Point, Point]) => {
  let nearest = Infinity;
  let inside = true;
  const turn = Math.sign(
    (corners[1][0] - corners[0][0]) * (corners[2][1] - corners[0][1]) -
      (corners[1][1] - corners[0][1]) * (corners[2][0] - corners[0][0]),
  );
  for (let index = 0; index < 3; index += 1) {
    const a = corners[index]!;
    const b = corners[(index + 1) % 3]!;
    nearest = Math.min(nearest, segment(p, a, b));
    const edge = minus(b, a);
    const toPoint = minus(p, a);
    if (turn * (edge[0] * toPoint[1] - edge[1] * toPoint[0]) < 0) inside = false;
  }
  return inside ? -nearest : nearest;
};

// The symbol, on the unit square: a rounded bubble with its tail at the lower left, and a check.
const bubble = (p: Point) =>
  Math.min(
    roundedBox(p, [0.5, 0.42], [0.42, 0.32], 0.14),
    triangle(p, [
      [0.2, 0.62],
      [0.2, 0.92],
      [0.46, 0.7],
    ]),
  );
const CHECK: readonly [Point, Point, Point] = [
  [0.3, 0.43],
  [0.44, 0.57],
  [0.7, 0.29],
];
const check = (p: Point) =>
  Math.min(segment(p, CHECK[0], CHECK[1]), segment(p, CHECK[1], CHECK[2]));

/** Subsamples per pixel side: 4 × 4 give smooth edges. */
const SUBSAMPLES = 4;

/**
 * Draws `size` × `size` pixels: `paint` answers a colour [r, g, b, a] at a point of the unit
 * square, and the symbol square (`inset` pixels from each side) is what the unit square covers.
 */
const draw = (
  size: number,
  inset: number,
  paint: (p: Point) => readonly [number, number, number, number],
) => {
  const pixels = new Uint8Array(size * size * 4);
  const span = size - 2 * inset;
  const samples = SUBSAMPLES ** 2;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < SUBSAMPLES; sy += 1) {
        for (let sx = 0; sx < SUBSAMPLES; sx += 1) {
          const colour = paint([
            (x + (sx + 0.5) / SUBSAMPLES - inset) / span,
            (y + (sy + 0.5) / SUBSAMPLES - inset) / span,
          ]);
          colour.forEach((value, channel) => (sum[channel] = (sum[channel] ?? 0) + value));
        }
      }
      pixels.set(
        sum.map((value) => Math.round(value / samples)),
        (y * size + x) * 4,
      );
    }
  }
  return encodePng({ width: size, height: size, pixels });
};

const ACCENT = [1, 3, 5].map((at) => parseInt(TEAMS_ACCENT_COLOR.slice(at, at + 2), 16)) as [
  number,
  number,
  number,
];
const WHITE = [255, 255, 255] as const;

/** Drawn once per process: the same pixels every time. */
const once = (make: () => Buffer) => {
  let made: Buffer | undefined;
  return () => (made ??= make());
};

/** 192 × 192, full bleed: the white symbol on the accent colour, within the 120 × 120 safe area. */
export const colorIcon = once(() =>
  draw(192, 36, (p) => (bubble(p) <= 0 && check(p) > 0.045 ? [...WHITE, 255] : [...ACCENT, 255])),
);

// Two pixels wide at 32 px, on a symbol square of 30 px.
const OUTLINE_HALF_WIDTH = 1 / 30;

/** 32 × 32: the symbol's outline in white, every other pixel transparent (white at alpha 0). */
export const outlineIcon = once(() =>
  draw(32, 1, (p) =>
    Math.abs(bubble(p)) <= OUTLINE_HALF_WIDTH || check(p) <= OUTLINE_HALF_WIDTH
      ? [...WHITE, 255]
      : [...WHITE, 0],
  ),
);
