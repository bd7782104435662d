/** Seeded randomness. Every random number in the scene comes from one of these, so a URL is a scene. */

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/** mulberry32: a tiny, fast 32-bit PRNG with a good enough spread for scattering points. */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for an independent stream derived from `seed` (so e.g. wandering never shifts the layout). */
export function deriveSeed(seed: number, stream: number): number {
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A standard normal sample (Box-Muller; uses two uniforms). */
export function gaussian(random: Random): number {
  const u = 1 - random(); // (0, 1]: log never sees 0
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
