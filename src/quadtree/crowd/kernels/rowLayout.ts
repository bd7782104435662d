// The layout of a row (row.ts, rowBuild.ts, pairs.ts: one leaf and its partners, gathered) in the call's
// scratch at TEMP (call.ts), and the table the first passes compact their lists with.

/**
 * The row's layout in `temp`: 80 bytes of loop constants (row.ts; the last 16 hold buildRow's reach until it
 * is read), then four arrays (rx at rowX(temp), then ry, slot, hits), per entry, with `cap` = rowCap(slots)
 * entries of 4 bytes per array:
 *   rx, ry  f32 offsets (x - x0) h, (y - y0) h, h a power of two with radius h in [1, 2) and x0, y0 the
 *           middle of the items' extent (prepared) or a's first item
 *   slot    i32 the item's slot; before the passes, the byte address of its f64 x, y (xy + 16 slot), from
 *           which the second pass reads x, y and finds the sums record (sums + 32 slot)
 *   hits    per item of a batch: the length of its list, then the addresses the first pass listed, padded
 *           to a multiple of 4 with the padding slot's
 * Past the row's last entry m, four pad entries that no test accepts (NaN), whose slot is the padding record.
 */
export function rowCap(slots: i32): usize {
  return (<usize>slots + 16 + 3) & ~(<usize>3);
}

/** Bytes of `temp` that accumulate needs for a tree of `slots` slots. */
export function tempBytes(slots: i32): usize {
  return rowCap(slots) * 16 + 80;
}

/** Where the row's first array (rx) starts in `temp`: after the loop constants. */
export function rowX(temp: usize): usize {
  return temp + 80;
}

// For each 4-bit mask of lanes that passed, the bytes that move those lanes' i32 to the front (swizzle).
// biome-ignore format: one row per mask
export const COMPACT = memory.data<u8>([
  128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128,
  8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128,
  12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128,
  8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
]);
