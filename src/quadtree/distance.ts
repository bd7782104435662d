/**
 * The factor that circle tests at this radius multiply every difference by, so that squared distances
 * neither overflow nor underflow: 1 wherever `radius * radius` is a finite number well inside the normal
 * range (radius from about 1e-144 to 1.3e154), so the rule is the plain `dx * dx + dy * dy <= r * r`;
 * otherwise a power of two that brings `radius * s` near 1 (exact: scaling by a power of two rounds
 * nothing). A difference that overflows is Infinity, past any finite radius, so it is still right. For
 * radius 0 a factor so large that any non-zero difference stays non-zero when squared: radius 0 finds
 * exactly the points at the centre.
 */
export function distanceScale(radius: number): number {
  const r2 = radius * radius;
  if (r2 >= 2 ** -960 && r2 < Infinity) return 1;
  if (radius === 0) return 2 ** 1023;
  return Math.min(2 ** 1023, 2 ** -Math.floor(Math.log2(radius)));
}
