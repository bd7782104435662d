/*
 * What a separation team's caller (team.ts) hands its helpers each call, and how it cuts the work: the cut of
 * the leaf-pair list into ranges by work, whose running totals are taken again only for a new list (and now
 * and then, as the items' counts drift), and the inputs written into the shared buffer: the part of the
 * tree's arrays in use (the helpers read no further) and the list only where it changed.
 */

import type { TreeState } from '../core/state';
import type { SeparationWasm } from '../crowd/wasm';
import { groupsOf, LIST, publishedLength, type TeamViews } from './teamLayout';
import { cutByWork, cutRanges } from './teamParts';

/**
 * Calls between two passes over the list for its running totals of work while the list stays (the items'
 * counts drift as they move; the caller's share makes up for the rest).
 */
const PREFIX_CALLS = 30;

type Head = Float64Array | Int32Array;

export class TeamInputs {
  /** cutByWork's running totals of work, one per leaf pair and one more (grown, never shrunk). */
  private prefix = new Float64Array(0);
  /**
   * The kernel's list stamp the running totals are of (-1: none; one stamp is one list, so one pair count),
   * and calls since.
   */
  private prefixStamp = -1;
  private prefixAge = 0;
  /** The kernel's list stamp and the buffer's views of the last list published. */
  private listStamp = -1;
  private listViews: TeamViews | null = null;
  /** Views of the first entries of the arrays written (see head). */
  private readonly heads: Head[] = [];
  private readonly headOf: (Head | null)[] = [];

  /**
   * The first `pairs` leaf pairs of `list` (the kernel's, of list stamp `stamp`) cut into `parts` ranges by
   * work into `cuts`, the caller's range `share` times a helper's (teamParts.ts's cutByWork, on running
   * totals kept while the stamp stays, for at most PREFIX_CALLS calls).
   */
  cut(
    stamp: number,
    list: Int32Array,
    pairs: number,
    nodeCount: Int32Array,
    parts: number,
    share: number,
    cuts: Int32Array,
  ): void {
    if (this.prefix.length <= pairs) {
      this.prefix = new Float64Array(Math.max(pairs + 1, 2 * this.prefix.length));
      this.prefixStamp = -1;
    }
    if (stamp === this.prefixStamp && ++this.prefixAge < PREFIX_CALLS) {
      cutRanges(this.prefix, pairs, parts, share, cuts);
      return;
    }
    cutByWork(list, pairs, nodeCount, parts, share, cuts, this.prefix);
    this.prefixStamp = stamp;
    this.prefixAge = 0;
  }

  /**
   * Writes generation g's inputs into the buffer of `v`: the tree's pool (x, y and ids of its slots up to
   * pool.top) and nodes (first slots, counts and children up to nodeTop, the groups' parents), as they lie
   * (and a few entries past them: see head); and the kernel's list of `pairs` leaf pairs where it changed
   * since the last written (a walk, a new buffer), with the LIST word set to g so that the helpers copy it
   * into their kernels.
   */
  write(v: TeamViews, t: TreeState, wasm: SeparationWasm, pairs: number, g: number): void {
    const top = t.pool.top;
    const nodes = t.nodeTop;
    v.xy.set(this.head(0, t.pool.xy, 2 * top, v.xy.length));
    v.ids.set(this.head(1, t.pool.ids, top, v.ids.length));
    v.start.set(this.head(2, t.nodeStart, nodes, v.start.length));
    v.count.set(this.head(3, t.nodeCount, nodes, v.count.length));
    v.child.set(this.head(4, t.nodeChild, nodes, v.child.length));
    v.parent.set(this.head(5, t.groupParent, groupsOf(nodes), v.parent.length));
    if (wasm.listStamp !== this.listStamp || v !== this.listViews) {
      v.list.set(this.head(6, wasm.pairList(), 2 * pairs, v.list.length));
      v.control[LIST] = g;
      this.listStamp = wasm.listStamp;
      this.listViews = v;
    }
  }

  /**
   * A view of the first entries of `a` to copy into `room` entries: at least `n` of them (up to
   * publishedLength's), kept while `a` stays and its length covers `n`. The pool's top, the node count and
   * the list's length move a little from frame to frame in a moving crowd: a view a little longer than
   * needed is made again only when they outgrow it (copying a few entries past what is in use, which the
   * helpers never read).
   */
  private head<A extends Head>(k: number, a: A, n: number, room: number): A {
    const h = this.heads[k];
    if (this.headOf[k] === a && h !== undefined && h.length >= Math.min(n, a.length)) return h as A;
    const view = a.subarray(0, Math.min(publishedLength(n), a.length, room)) as A;
    this.heads[k] = view;
    this.headOf[k] = a;
    return view;
  }
}
