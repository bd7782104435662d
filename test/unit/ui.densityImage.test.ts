import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BIG_DOTS, DensityImage, type DensityInput, pixel } from '../../src/ui/densityImage';

const SIZE = 64;
const COLORS = { shades: [10, 11, 12, 13, 14], crowd: 20, rect: 21, detected: 22 };

/** `count` seeded enemies on a 100 x 100 ground centred on the origin. */
function input(seed: number, count: number, crowd: ((id: number) => boolean) | null = null): DensityInput {
  const random = mulberry32(seed);
  const xs = new Float32Array(count);
  const zs = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    xs[i] = (random() - 0.5) * 100;
    zs[i] = (random() - 0.5) * 100;
  }
  return {
    ground: { minX: -50, minZ: -50 },
    xs,
    zs,
    count,
    rectIds: new Int32Array(0),
    rectCount: 0,
    foundIds: new Int32Array(0),
    foundCount: 0,
    crowd: crowd === null ? null : { has: crowd },
  };
}

const scale = SIZE / 100;
const pixelOf = (f: DensityInput, id: number) =>
  Math.min(SIZE - 1, Math.floor((f.zs[id] + 50) * scale)) * SIZE +
  Math.min(SIZE - 1, Math.floor((f.xs[id] + 50) * scale));

describe('DensityImage (the map enemy image, built over frames)', () => {
  it('a pass takes ceil(count / perCall) steps and counts every enemy once, in its pixel (seed 1)', () => {
    const f = input(1, 40_000);
    const image = new DensityImage(SIZE, SIZE, 16_384, COLORS);
    expect([image.step(f, scale), image.step(f, scale), image.step(f, scale)]).toEqual([false, false, true]);
    expect(image.passes).toBe(1);
    const brute = new Int32Array(SIZE * SIZE);
    for (let i = 0; i < f.count; i++) brute[pixelOf(f, i)]++;
    const pixels = new Uint32Array(image.data.buffer);
    for (let p = 0; p < SIZE * SIZE; p++) {
      expect(image.countAt(p % SIZE, Math.floor(p / SIZE))).toBe(brute[p]);
      expect(pixels[p]).toBe(COLORS.shades[Math.min(brute[p], 4)]);
    }
  });

  it('paints crowd, rectangle and detected enemies over the density, the detected last (seed 2)', () => {
    const f = input(2, 3000, (id) => id % 7 === 0);
    f.rectIds = Int32Array.from([5, 6, 14]);
    f.rectCount = 3;
    f.foundIds = Int32Array.from([6, 9]);
    f.foundCount = 2;
    const image = new DensityImage(SIZE, SIZE, 16_384, COLORS);
    expect(image.step(f, scale)).toBe(true);
    const pixels = new Uint32Array(image.data.buffer);
    // Few enemies: 2 x 2 dots, so each id's top-left pixel is its own.
    expect(f.count).toBeLessThanOrEqual(BIG_DOTS);
    expect(pixels[pixelOf(f, 9)]).toBe(COLORS.detected);
    expect(pixels[pixelOf(f, 6)]).toBe(COLORS.detected); // in both sets: detected wins
    expect(pixels[pixelOf(f, 5)]).toBe(COLORS.rect);
    expect(pixels[pixelOf(f, 14)]).toBe(COLORS.rect); // crowded too: the rectangle wins
    expect(pixels[pixelOf(f, 7) + SIZE + 1]).toBe(COLORS.crowd);
  });

  it('after a full last slice it shades in the next call, so no call does both at full cost', () => {
    const f = input(5, 2 * 8192);
    const image = new DensityImage(SIZE, SIZE, 8192, COLORS);
    expect([image.step(f, scale), image.step(f, scale)]).toEqual([false, false]);
    expect(image.busy).toBe(true);
    expect(image.countAt(0, 0)).toBeNaN(); // no finished image yet
    expect(image.step(f, scale)).toBe(true);
    expect(image.busy).toBe(false);
    let total = 0;
    for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) total += image.countAt(x, y);
    expect(total).toBe(f.count);
  });

  it('starts over when the enemy count changes under a pass', () => {
    const f = input(3, 40_000);
    const image = new DensityImage(SIZE, SIZE, 16_384, COLORS);
    expect(image.step(f, scale)).toBe(false);
    f.count = 20_000;
    expect(image.busy).toBe(true);
    expect([image.step(f, scale), image.step(f, scale)]).toEqual([false, true]);
    let total = 0;
    for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) total += image.countAt(x, y);
    expect(total).toBe(20_000);
  });

  it('a level wider than deep: a wide image, every enemy in its pixel, none past the bottom row (seed 4)', () => {
    const f = input(4, 9000);
    for (let i = 0; i < f.count; i++) f.zs[i] *= 0.5; // 100 x 50: z in -25..25
    f.ground = { minX: -50, minZ: -25 };
    const image = new DensityImage(SIZE, SIZE / 2, 4096, COLORS);
    while (!image.step(f, scale));
    const brute = new Int32Array(SIZE * (SIZE / 2));
    for (let i = 0; i < f.count; i++) {
      const x = Math.min(SIZE - 1, Math.floor((f.xs[i] + 50) * scale));
      const y = Math.min(SIZE / 2 - 1, Math.floor((f.zs[i] + 25) * scale));
      brute[y * SIZE + x]++;
    }
    for (let y = 0; y < SIZE / 2; y++)
      for (let x = 0; x < SIZE; x++) expect(image.countAt(x, y)).toBe(brute[y * SIZE + x]);
    expect(image.data.length).toBe(SIZE * (SIZE / 2) * 4);
  });

  it('pixel() packs #rrggbb and alpha in ImageData byte order', () => {
    const bytes = new Uint8Array(Uint32Array.of(pixel('#1fd1f0', 200)).buffer);
    expect([...bytes]).toEqual([0x1f, 0xd1, 0xf0, 200]);
  });
});
