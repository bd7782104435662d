/**
 * The O(n²) oracle of querySeparationInto over typed arrays, in float64: per id, the neighbours within r
 * (closed) and the sum of (p - q) (1 / d - 1 / r); coincident pairs push the lower id by -1 along x, the
 * higher by +1. Ids are 0..n-1 at (xs[id], ys[id]); `present[id]` 0 leaves an id out.
 */
export function bruteSeparation(
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  r: number,
  present?: Uint8Array,
): { pairs: number; counts: Int32Array; sumX: Float64Array; sumY: Float64Array } {
  const n = xs.length;
  const counts = new Int32Array(n);
  const sumX = new Float64Array(n);
  const sumY = new Float64Array(n);
  let pairs = 0;
  for (let a = 0; a < n; a++) {
    if (present !== undefined && present[a] === 0) continue;
    for (let b = a + 1; b < n; b++) {
      if (present !== undefined && present[b] === 0) continue;
      const dx = xs[b] - xs[a];
      const dy = ys[b] - ys[a];
      if (dx * dx + dy * dy > r * r) continue;
      const d = Math.hypot(dx, dy);
      let ux = 1; // coincident: a < b, so a goes to -x
      let uy = 0;
      if (d > 0) {
        const w = 1 / d - 1 / r;
        ux = dx * w;
        uy = dy * w;
      }
      pairs++;
      counts[a]++;
      counts[b]++;
      sumX[a] -= ux;
      sumY[a] -= uy;
      sumX[b] += ux;
      sumY[b] += uy;
    }
  }
  return { pairs, counts, sumX, sumY };
}
