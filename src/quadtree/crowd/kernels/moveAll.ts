// moveAll's pass over every id in the kernel (the host: ../moveKernel.ts; the JavaScript pass it mirrors:
// moveInPlace in ../../update/moveAll.ts). The tree's pool and id tables live in this module's memory while the
// host holds them there, so the pass writes each staying item's new position into the tree's own slot; the
// items that left their leaf are listed for the host, which re-files them in JavaScript in the same order.

import {
  BOX_MAX_X,
  BOX_MAX_Y,
  BOX_MIN_X,
  BOX_MIN_Y,
  ID_LEAF,
  ID_SLOT,
  LEAVER_XY,
  LEAVERS,
  MAX_ID,
  MOVE_RECT,
  MOVE_WIDE,
  MOVE_XS,
  MOVE_XY,
  MOVE_YS,
  ROOT_MAX_X,
  ROOT_MAX_Y,
} from './moveCall';

/**
 * Whether the new positions of every id up to MAX_ID (MOVE_XS, MOVE_YS, present or not) lie inside the box
 * BOX_MIN_X..BOX_MAX_Y, edges included (moveAll's first check, which NaN fails): 1 if so, 0 at the first that
 * does not.
 */
export function inside(c: usize): i32 {
  return load<i32>(c, MOVE_WIDE) !== 0 ? insideOf<f64>(c) : insideOf<f32>(c);
}

function insideOf<T>(c: usize): i32 {
  const xs = load<usize>(c, MOVE_XS);
  const ys = load<usize>(c, MOVE_YS);
  const maxId = load<i32>(c, MAX_ID);
  const minX = load<f64>(c, BOX_MIN_X);
  const minY = load<f64>(c, BOX_MIN_Y);
  const maxX = load<f64>(c, BOX_MAX_X);
  const maxY = load<f64>(c, BOX_MAX_Y);
  const shift: usize = sizeof<T>() === 8 ? 3 : 2;
  for (let id = 0; id <= maxId; id++) {
    const x = <f64>load<T>(xs + ((<usize>id) << shift));
    const y = <f64>load<T>(ys + ((<usize>id) << shift));
    if (!(x >= minX && x <= maxX && y >= minY && y <= maxY)) return 0;
  }
  return 1;
}

/**
 * For every id up to MAX_ID present in the tree (ID_SLOT >= 0): its new position (MOVE_XS, MOVE_YS) is
 * written into its slot of MOVE_XY where its leaf's loose rectangle (MOVE_RECT, by ID_LEAF) holds it (edges
 * included on the min sides, and on a max side only where it is the root's: core/geometry.ts's holds), else
 * its id is listed at LEAVERS and its position at LEAVER_XY. Returns how many were listed.
 */
export function stay(c: usize): i32 {
  return load<i32>(c, MOVE_WIDE) !== 0 ? stayOf<f64>(c) : stayOf<f32>(c);
}

function stayOf<T>(c: usize): i32 {
  const xy = load<usize>(c, MOVE_XY);
  const idSlot = load<usize>(c, ID_SLOT);
  const idLeaf = load<usize>(c, ID_LEAF);
  const rect = load<usize>(c, MOVE_RECT);
  const xs = load<usize>(c, MOVE_XS);
  const ys = load<usize>(c, MOVE_YS);
  const leavers = load<usize>(c, LEAVERS);
  const leaverXY = load<usize>(c, LEAVER_XY);
  const maxId = load<i32>(c, MAX_ID);
  const rootMaxX = load<f64>(c, ROOT_MAX_X);
  const rootMaxY = load<f64>(c, ROOT_MAX_Y);
  const shift: usize = sizeof<T>() === 8 ? 3 : 2;
  let n = 0;
  for (let id = 0; id <= maxId; id++) {
    const slot = load<i32>(idSlot + ((<usize>id) << 2));
    if (slot < 0) continue;
    const x = <f64>load<T>(xs + ((<usize>id) << shift));
    const y = <f64>load<T>(ys + ((<usize>id) << shift));
    const b = rect + ((<usize>load<i32>(idLeaf + ((<usize>id) << 2))) << 5);
    const maxX = load<f64>(b, 16);
    const maxY = load<f64>(b, 24);
    if (
      x >= load<f64>(b) &&
      y >= load<f64>(b, 8) &&
      (x < maxX || (x === maxX && x === rootMaxX)) &&
      (y < maxY || (y === maxY && y === rootMaxY))
    ) {
      const o = xy + ((<usize>slot) << 4);
      store<f64>(o, x);
      store<f64>(o, y, 8);
    } else {
      store<i32>(leavers + ((<usize>n) << 2), id);
      const o = leaverXY + ((<usize>n) << 4);
      store<f64>(o, x);
      store<f64>(o, y, 8);
      n++;
    }
  }
  return n;
}
