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
    const d: number[] = [];
    for (const p of this.points.values()) {
      const dx = p.x - x;
      const dy = p.y - y;
      const d2 = dx * dx + dy * dy;
      if (d2 <= maxDistance * maxDistance) d.push(d2);
    }
    return d.sort((a, b) => a - b).slice(0, k);
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
