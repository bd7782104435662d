/*
 * A separation team's helper thread (the calling thread's side is team.ts; the shared buffer's layout is
 * teamLayout.ts). The thread's script hands every message it receives to serveSeparation, which blocks the
 * thread: it sleeps in Atomics.wait until the caller publishes a generation, claims its range of the leaf
 * pairs, copies the inputs into its own WebAssembly kernel's memory, accumulates its range into per-slot
 * sums, writes them (and the blocks of slots they were written in) to its regions of the shared buffer and
 * marks the generation done.
 */

import { separationWasm } from '../crowd/wasm';
import { emptyTreeArrays } from '../crowd/wasmLayout';
import {
  ATTACHED,
  CLAIM,
  checkHelperMessage,
  DONE,
  FAILED,
  FOUND,
  FROM,
  groupsOf,
  helperWord,
  LIST,
  NO_KERNEL,
  NODES,
  PAIRS,
  publishedLength,
  RETIRED,
  SEEN,
  SEQ,
  SLOTS,
  STATE,
  STOP,
  TO,
} from './teamLayout';

/**
 * Serves a separation team from a helper thread (a Web Worker, or a Node worker_threads Worker): call it
 * with the message the team posted (see {@link SeparationTeam}); it returns only when the team is done with
 * this buffer: 'replaced' when the team grew into a new buffer (its message follows: return to the event
 * loop so that it arrives, then call this again with it), 'stopped' when the team was disposed. Blocks the
 * thread meanwhile (Atomics.wait), so never call it on a browser's main thread. A thread whose engine cannot
 * compile the WebAssembly kernel says so in the buffer and returns 'stopped' at once: the team then does
 * its share itself.
 * @throws TypeError / RangeError if `message` is not a team's message (a shared buffer and a helper index).
 */
export function serveSeparation(message: unknown): 'replaced' | 'stopped' {
  const { views, index } = checkHelperMessage(message);
  const control = views.control;
  const wasm = separationWasm();
  if (wasm === null) {
    Atomics.store(control, helperWord(index, STATE), NO_KERNEL);
    return 'stopped';
  }
  Atomics.store(control, helperWord(index, STATE), ATTACHED);
  const claim = helperWord(index, CLAIM);
  const done = helperWord(index, DONE);
  // Views of the slots and nodes in use (made again only when they outgrow them).
  const tree = emptyTreeArrays();
  let list: Int32Array = views.list.subarray(0, 0);
  // The LIST word of the last generation whose copy was whole: its list is in the kernel. A copy torn while
  // the caller wrote a new list is dropped, and that new list's LIST differs from this: copied next time.
  let listSeen = -1;
  let seen = 0;
  for (;;) {
    const stop = Atomics.load(control, STOP);
    if (stop !== 0) return stop === RETIRED ? 'replaced' : 'stopped';
    const seq = Atomics.load(control, SEQ);
    if (seq === seen || (seq & 1) === 1) {
      // Until the caller publishes the next generation (or stops: it bumps SEQ then, too).
      Atomics.wait(control, SEQ, seq);
      continue;
    }
    seen = seq;
    Atomics.store(control, helperWord(index, SEEN), seq);
    const g = seq >> 1;
    const from = control[helperWord(index, FROM)];
    const to = Math.min(control[helperWord(index, TO)], control[PAIRS]);
    if (from >= to) continue;
    // The caller may have taken the range over already (this thread was late); then it is not ours.
    const c = Atomics.load(control, claim);
    if (c === g || Atomics.compareExchange(control, claim, c, g) !== c) continue;
    // A caller that may block (not a browser's main thread) sleeps until then.
    Atomics.notify(control, claim);
    try {
      const top = Math.min(control[SLOTS], views.capacity.slots);
      const nodes = Math.min(control[NODES], views.capacity.nodes);
      // Views of at least what is in use, made again only when that outgrows them (publishedLength).
      if (tree.ids.length < top) {
        const n = Math.min(publishedLength(top), views.ids.length, views.xy.length >> 1);
        tree.xy = views.xy.subarray(0, 2 * n);
        tree.ids = views.ids.subarray(0, n);
      }
      if (tree.start.length < nodes) {
        const n = Math.min(publishedLength(nodes), views.start.length);
        tree.start = views.start.subarray(0, n);
        tree.count = views.count.subarray(0, n);
        tree.child = views.child.subarray(0, n);
        tree.parent = views.parent.subarray(0, groupsOf(n));
      }
      const pairs = Math.min(control[PAIRS], views.capacity.pairs);
      if (list.length < 2 * pairs)
        list = views.list.subarray(0, Math.min(2 * publishedLength(pairs), views.list.length));
      // Its own copy of the tree (its own temp: this module instance is this thread's), and of the list
      // where the caller published a new one; published again meanwhile, the copy may be torn (the caller
      // gave up on this thread): not gathered then.
      const listAt = control[LIST];
      wasm.copyTree(tree, list, listAt !== listSeen);
      if (Atomics.load(control, SEQ) !== seq) continue;
      listSeen = listAt;
      // Gathered as the caller gathers its own (the same slot numbers), its rows prepared.
      const slots = wasm.gatherRows(views.numbers[0], views.numbers[1] === 1);
      const found = wasm.accumulateRange(from, to);
      // Published again meanwhile: the caller gave up on this thread, and what it copied may be torn.
      if (Atomics.load(control, SEQ) !== seq) continue;
      views.sums[index].set(wasm.slotSums(slots));
      views.touched[index].set(wasm.touchedBlocks(slots));
      control[helperWord(index, FOUND)] = found;
    } catch {
      Atomics.store(control, helperWord(index, FAILED), g);
    }
    Atomics.store(control, done, g);
    Atomics.notify(control, done);
  }
}
