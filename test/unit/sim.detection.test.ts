import { describe, expect, it } from 'vitest';
import { ChangeList, FoundSet, scanCircle, scanRect } from '../../src/sim/detection';
import { mulberry32 } from '../../src/sim/random';

/** Writes `ids` as the next answer of `set`; returns how many (what a query would return). */
function answer(set: FoundSet, ids: Iterable<number>): number {
  let n = 0;
  for (const id of ids) set.next[n++] = id;
  return n;
}

function changed(changes: ChangeList): number[] {
  return Array.from(changes.ids.subarray(0, changes.length)).sort((a, b) => a - b);
}

describe('ChangeList', () => {
  it('keeps each id once until cleared, id 0 included', () => {
    const c = new ChangeList(10);
    c.add(0);
    c.add(3);
    c.add(0);
    expect(changed(c)).toEqual([0, 3]);
    c.clear();
    expect(c.length).toBe(0);
    c.add(3);
    expect(changed(c)).toEqual([3]);
  });
});

describe('FoundSet', () => {
  it('reports exactly the ids that entered or left', () => {
    const set = new FoundSet(10);
    const changes = new ChangeList(10);
    set.commit(answer(set, [0, 1, 2]), changes);
    expect(changed(changes)).toEqual([0, 1, 2]);
    expect(set.has(0) && set.has(1) && set.has(2) && !set.has(3)).toBe(true);
    changes.clear();

    set.commit(answer(set, [2, 3, 1]), changes);
    expect(changed(changes)).toEqual([0, 3]);
    expect(set.sorted()).toEqual([1, 2, 3]);
    expect(set.size).toBe(3);
    expect(set.has(0)).toBe(false);
    changes.clear();

    set.commit(answer(set, [3, 2, 1]), changes);
    expect(changes.length).toBe(0);

    set.clear(changes);
    expect(changed(changes)).toEqual([1, 2, 3]);
    expect(set.size).toBe(0);
  });

  it('matches a Set-based model over random answers (seed 12345)', () => {
    const random = mulberry32(12345);
    const n = 200;
    const set = new FoundSet(n);
    const changes = new ChangeList(n);
    let model = new Set<number>();
    for (let step = 0; step < 300; step++) {
      const next = new Set<number>();
      const k = Math.floor(random() * 60);
      for (let i = 0; i < k; i++) next.add(Math.floor(random() * n));
      set.commit(answer(set, next), changes);
      const expected = [...new Set([...model, ...next])].filter((id) => model.has(id) !== next.has(id));
      expect(changed(changes)).toEqual(expected.sort((a, b) => a - b));
      const members = Array.from({ length: n }, (_, id) => set.has(id));
      expect(members).toEqual(Array.from({ length: n }, (_, id) => next.has(id)));
      changes.clear();
      model = next;
    }
  });
});

describe('brute-force scans', () => {
  const xs = new Float32Array([0, 3, 5, -4, 10]);
  const zs = new Float32Array([0, 4, 0, -3, 10]);
  const out = new Int32Array(5);
  const circle = (count: number, cx: number, cz: number, r: number) =>
    Array.from(out.subarray(0, scanCircle(xs, zs, count, cx, cz, r, out)));
  const rect = (count: number, minX: number, minZ: number, maxX: number, maxZ: number) =>
    Array.from(out.subarray(0, scanRect(xs, zs, count, minX, minZ, maxX, maxZ, out)));

  it('scanCircle includes points exactly on the radius and respects count', () => {
    expect(circle(5, 0, 0, 5)).toEqual([0, 1, 2, 3]);
    expect(circle(2, 0, 0, 5)).toEqual([0, 1]);
    expect(circle(5, 0, 0, 4.999)).toEqual([0]);
    expect(circle(5, 10, 10, 0)).toEqual([4]);
  });

  it('scanRect is closed on every side', () => {
    expect(rect(5, -4, -3, 5, 4)).toEqual([0, 1, 2, 3]);
    expect(rect(5, 0.5, 0.5, 9, 9)).toEqual([1]);
  });

  it('writes from index 0 and returns the count', () => {
    const out = new Int32Array([99, 99, 99]);
    expect(scanCircle(xs, zs, 5, 0, 0, 1, out)).toBe(1);
    expect([...out]).toEqual([0, 99, 99]);
  });
});
