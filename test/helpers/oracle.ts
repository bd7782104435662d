/** The brute-force answer every query is compared with: a plain map of id -> point, scanned in full. */
export class BruteForce {
  readonly points = new Map<number, { x: number; y: number }>();

  insert(id: number, x: number, y: number): void {
    this.points.set(id, { x, y });
  }

  move(id: number, x: number, y: number): void {
    this.points.set(id, { x, y });
  }

  remove(id: number): boolean {
    return this.points.delete(id);
  }

  circle(x: number, y: number, r: number): number[] {
    const out: number[] = [];
    for (const [id, p] of this.points) {
      const dx = p.x - x;
      const dy = p.y - y;
      if (dx * dx + dy * dy <= r * r) out.push(id);
    }
    return out.sort((a, b) => a - b);
  }

  rect(minX: number, minY: number, maxX: number, maxY: number): number[] {
    const out: number[] = [];
    for (const [id, p] of this.points) {
      if (p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY) out.push(id);
    }
    return out.sort((a, b) => a - b);
  }

  /** Squared distances of the k nearest within maxDistance, ascending (ids may tie, distances may not). */
  nearestDistances(x: number, y: number, k: number, maxDistance: number): number[] {
    // The k smallest so far, ascending (an insertion into a short list: no sort of every distance).
    const d: number[] = [];
    if (k === 0) return d;
    for (const p of this.points.values()) {
      const dx = p.x - x;
      const dy = p.y - y;
      const d2 = dx * dx + dy * dy;
      if (d2 > maxDistance * maxDistance || (d.length === k && d2 >= d[k - 1])) continue;
      let i = d.length === k ? k - 1 : d.length;
      while (i > 0 && d[i - 1] > d2) {
        d[i] = d[i - 1];
        i--;
      }
      d[i] = d2;
    }
    return d;
  }

  /** Every unordered pair of distinct ids within r (closed), as 'a-b' with a < b, sorted. */
  pairs(r: number): string[] {
    const ids = [...this.points.keys()];
    const xs = ids.map((id) => this.points.get(id)!.x);
    const ys = ids.map((id) => this.points.get(id)!.y);
    const out: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const dx = xs[j] - xs[i];
        const dy = ys[j] - ys[i];
        if (dx * dx + dy * dy <= r * r)
          out.push(ids[i] < ids[j] ? `${ids[i]}-${ids[j]}` : `${ids[j]}-${ids[i]}`);
      }
    }
    return out.sort();
  }

  distance2(id: number, x: number, y: number): number {
    const p = this.points.get(id);
    if (!p) throw new Error(`oracle: no id ${id}`);
    return (p.x - x) ** 2 + (p.y - y) ** 2;
  }
}

export function sorted(ids: number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}

/** A node of {@link strictShape}: its rectangle, depth, whether it is a leaf, and the items below it. */
export interface ShapeNode {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  depth: number;
  isLeaf: boolean;
  /** Items in its subtree (a leaf: the items it holds). */
  count: number;
  /** A leaf's items' ids; empty for an inner node. */
  ids: number[];
}

/**
 * The nodes a tree without looseness must have, worked out from the points alone, without the tree: from
 * the root rectangle, a node holding more than maxItems points splits at its midpoint (lo + (hi - lo) / 2)
 * when every quadrant would be at least minSize wide and deep; a point on a split line goes east / south.
 * Parent before children, NW NE SW SE (visitNodes' order). Good for roots that never grew, or grew by
 * doublings with no rounding (the split lines of a grown root are its old edges).
 */
export function strictShape(
  points: ReadonlyMap<number, { x: number; y: number }>,
  root: { minX: number; minY: number; maxX: number; maxY: number },
  maxItems: number,
  minSize: number,
): ShapeNode[] {
  const out: ShapeNode[] = [];
  const visit = (minX: number, minY: number, maxX: number, maxY: number, depth: number, ids: number[]) => {
    const mx = minX + (maxX - minX) * 0.5;
    const my = minY + (maxY - minY) * 0.5;
    const splits =
      ids.length > maxItems &&
      mx - minX >= minSize &&
      maxX - mx >= minSize &&
      my - minY >= minSize &&
      maxY - my >= minSize;
    out.push({ minX, minY, maxX, maxY, depth, isLeaf: !splits, count: ids.length, ids: splits ? [] : ids });
    if (!splits) return;
    const quads: number[][] = [[], [], [], []];
    for (const id of ids) {
      const p = points.get(id)!;
      quads[(p.x >= mx ? 1 : 0) | (p.y >= my ? 2 : 0)].push(id);
    }
    visit(minX, minY, mx, my, depth + 1, quads[0]);
    visit(mx, minY, maxX, my, depth + 1, quads[1]);
    visit(minX, my, mx, maxY, depth + 1, quads[2]);
    visit(mx, my, maxX, maxY, depth + 1, quads[3]);
  };
  visit(root.minX, root.minY, root.maxX, root.maxY, 0, [...points.keys()]);
  return out;
}
