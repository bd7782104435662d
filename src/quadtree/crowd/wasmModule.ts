/**
 * Compiling the WebAssembly kernel (source: kernels/separation.ts and the files it imports, built into
 * separationWasm.ts by `npm run build:kernels`) synchronously from the embedded bytes, and the exports it
 * has. Keep the module small (a test keeps it under 16 KB): browsers may refuse to compile large modules
 * synchronously on the main thread (Chrome's limit is 8 MB today and used to be 4 KB; the browser tests'
 * Chromium compiles this ~8 KB one, in well under a millisecond: V8 compiles its functions lazily). Where WebAssembly, its SIMD or the synchronous compile is refused, compiling fails and
 * {@link compileKernel} answers null: the callers keep the JavaScript kernels.
 */

import { SEPARATION_WASM } from './separationWasm';

/*
 * The few members of the engine's WebAssembly API and atob used here, typed here: the library is built
 * against ES2022 alone (no DOM or Node types), and finds them on globalThis where the engine has them.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: object };
}
const engine = globalThis as { WebAssembly?: WasmApi; atob?: (data: string) => string };

/**
 * The module's exports. Every pointer is a byte offset into its memory; `call` is the address of the call's
 * record (kernels/call.ts), which the host fills before a call: each kernel reads its arguments there.
 */
export interface Exports {
  memory: WasmMemory;
  heapBase(): number;
  tempBytes(slots: number): number;
  prepBytes(slots: number): number;
  /** kernels/gather.ts: the pool's items leaf by leaf into XY and IDS; the slots filled, or -1 for a torn copy. */
  gather(call: number): number;
  /** kernels/prepare.ts: the rows' f32 offsets of every slot, for the call's radius. */
  prepare(call: number): void;
  /** kernels/walk.ts: the leaf pairs within reach into LIST; their count, or -1 / -2 out of room. */
  walk(call: number): number;
  /** kernels/walk.ts: the first `n` leaf pairs at LIST grouped by first leaf into SORTED. */
  sortByFirst(call: number, n: number): void;
  /** kernels/separation.ts: the fused join over the grouped pairs [from, to) into the per-slot sums. */
  accumulate(call: number, from: number, to: number): number;
  /** kernels/separation.ts: the per-slot sums handed to the per-id outputs. */
  scatterLeaves(call: number): void;
  /** kernels/pairs.ts: one chunk of the pair join; the pairs written. */
  joinPairs(call: number): number;
  /** kernels/moveAll.ts: whether every new position is inside the root (record: kernels/moveCall.ts). */
  inside(call: number): number;
  /** kernels/moveAll.ts: moveAll's pass (record: kernels/moveCall.ts); the ids that left their leaf. */
  stay(call: number): number;
  /** kernels/refile.ts: the leavers `stay` listed re-filed in order; how many (the rest need the pool to grow). */
  file(call: number): number;
}

/** base64 to bytes, without Buffer (browsers) or a fetch. */
function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = engine.atob!(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The module compiled once (undefined: not tried yet; null: this engine cannot compile it). */
let compiled: object | null | undefined;

/**
 * A new instance of the kernel (its own memory; the module is compiled on the first call only); null where this
 * engine cannot compile or run it.
 */
export function compileKernel(): Exports | null {
  try {
    const api = engine.WebAssembly;
    if (api === undefined || engine.atob === undefined) throw new Error('no WebAssembly here');
    if (compiled === undefined) {
      compiled = null;
      compiled = new api.Module(decode(SEPARATION_WASM));
    }
    if (compiled === null) return null;
    const instance = new api.Instance(compiled, {
      env: {
        abort: () => {
          throw new Error('PointQuadtree: the separation kernel aborted');
        },
      },
    });
    return instance.exports as unknown as Exports;
  } catch {
    return null;
  }
}
