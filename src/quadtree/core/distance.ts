/*
 * Powers of two that keep squared distances finite: distanceScale for a radius, spanScale for nearest's
 * coordinates. Multiplying by one rounds nothing.
 */

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

/**
 * The factor nearest() multiplies differences by when it ranks points by distance: 1 while every
 * coordinate's magnitude (`magnitude`: the largest of the centre's and the root's) is at most 2^500, else the
 * power of two that brings it to about 2^500. Squared distances across the whole root then stay finite, so
 * far points are ordered by distance instead of tying at Infinity, while differences keep about 500 binary
 * orders of range below that (distanceScale, made for a radius, would scale huge coordinates down to about
 * 1 and lose the small differences to underflow).
 */
export function spanScale(magnitude: number): number {
  return magnitude <= 2 ** 500 ? 1 : 2 ** (500 - Math.ceil(Math.log2(magnitude)));
}
