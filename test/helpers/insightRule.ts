/**
 * The map's node kinds by their written rule (docs/scene.md), over a plain list of nodes: an oracle that
 * shares no code with src/sim/insight.ts (which follows the library's visitCircle instead).
 */

/** A node in walk order (parent before children), with the items in its whole subtree. */
export interface RuleNode {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  depth: number;
  /** Items below this node (a leaf's own; an inner node's summed from its leaves). */
  count: number;
}

/** `below`: a non-empty node under a covered one (the query steps through it; the map counts it as untouched). */
export type Kind = 'untouched' | 'visited' | 'pruned' | 'covered' | 'below';

/**
 * Kinds by the rule: the root is visited if the tree holds a point and the root is within reach; a child of a
 * visited node is pruned if its rectangle (grown by looseness, clipped to the root) lies farther than r from
 * the centre, else covered if it holds items and lies wholly inside the circle, else visited if it holds
 * items (else untouched: empty); below a covered node every non-empty node is `below`; everything else is
 * untouched.
 */
export function kindsByRule(
  nodes: readonly RuleNode[],
  looseness: number,
  x: number,
  y: number,
  r: number,
): Kind[] {
  const root = nodes[0];
  const kinds: Kind[] = [];
  const path: Kind[] = [];
  for (const n of nodes) {
    const grown =
      n.depth === 0
        ? [n.minX, n.minY, n.maxX, n.maxY]
        : [
            Math.max(n.minX - looseness, root.minX),
            Math.max(n.minY - looseness, root.minY),
            Math.min(n.maxX + looseness, root.maxX),
            Math.min(n.maxY + looseness, root.maxY),
          ];
    const dx = Math.max(grown[0] - x, 0, x - grown[2]);
    const dy = Math.max(grown[1] - y, 0, y - grown[3]);
    const far = dx * dx + dy * dy > r * r;
    const fx = Math.max(x - grown[0], grown[2] - x);
    const fy = Math.max(y - grown[1], grown[3] - y);
    const inside = fx * fx + fy * fy <= r * r;
    let kind: Kind;
    if (n.depth === 0) kind = root.count > 0 && !far ? 'visited' : 'untouched';
    else {
      const parent = path[n.depth - 1];
      if (parent === 'covered' || parent === 'below') kind = n.count > 0 ? 'below' : 'untouched';
      else if (parent !== 'visited') kind = 'untouched';
      else if (far) kind = 'pruned';
      else if (n.count === 0) kind = 'untouched';
      else kind = inside ? 'covered' : 'visited';
    }
    path.length = n.depth;
    path.push(kind);
    kinds.push(kind);
  }
  return kinds;
}

/** How many nodes of each kind. */
export function countKinds(kinds: readonly Kind[]): Record<Kind, number> {
  const out: Record<Kind, number> = { untouched: 0, visited: 0, pruned: 0, covered: 0, below: 0 };
  for (const k of kinds) out[k]++;
  return out;
}

/** Nodes as visitNodes reports them, with subtree counts summed from the leaves. */
export function ruleNodes(visitNodes: (cb: (n: RuleNode & { isLeaf: boolean }) => void) => void): RuleNode[] {
  const out: RuleNode[] = [];
  const path: RuleNode[] = [];
  visitNodes((n) => {
    const node = { minX: n.minX, minY: n.minY, maxX: n.maxX, maxY: n.maxY, depth: n.depth, count: n.count };
    path.length = n.depth;
    if (n.isLeaf) for (const above of path) above.count += n.count;
    path.push(node);
    out.push(node);
  });
  return out;
}
