/*
 * Argument checks, one per kind of argument, shared by every entry point. Each throws before anything
 * changes, with a message that starts with the class name and names the argument and its value. Nothing is
 * converted: `typeof` and `Number.isFinite` call no `valueOf` of the caller's.
 */

import type { Bounds, QuadtreeOptions } from './types';

/** The prefix of every error message. */
export const NAME = 'PointQuadtree';

/** Largest id accepted. Ids index dense arrays, so memory grows with the largest id in use (8 bytes each). */
export const MAX_ID = 0x1ffffff;

/** Defaults of the options (chosen by measurement: see docs/performance.md). */
export const DEFAULTS: Readonly<{ maxItems: number; minSize: number; looseness: number }> =
  /* @__PURE__ */ Object.freeze({
    maxItems: 64,
    minSize: 1,
    looseness: 0,
  });

/**
 * A value as an error message shows it, without converting it: no `valueOf` or `toString` of the caller's
 * object is called, and BigInt and Symbol values print instead of throwing.
 */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `${value.toString()}n (a BigInt)`;
    case 'symbol':
      return value.toString();
    case 'function':
      return 'a function';
    case 'object':
      return value === null ? 'null' : `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
    default:
      return String(value);
  }
}

/**
 * The one wording of an argument's error, built here once:
 * `PointQuadtree: <name> must be <rule>, got <value as describe shows it>`.
 */
export function mustBe(type: typeof TypeError, name: string, rule: string, value: unknown): never {
  throw new type(`${NAME}: ${name} must be ${rule}, got ${describe(value)}`);
}

/** A TypeError for an argument that is not a number at all (checked with typeof; nothing is converted). */
export function notANumber(name: string, value: unknown): never {
  mustBe(TypeError, name, 'a number', value);
}

export function checkCoordinate(name: string, value: number): void {
  if (typeof value !== 'number') notANumber(name, value);
  if (!Number.isFinite(value)) mustBe(RangeError, name, 'a finite number', value);
}

export function checkRadius(name: string, value: number): void {
  if (typeof value !== 'number') notANumber(name, value);
  if (!Number.isFinite(value) || value < 0) mustBe(RangeError, name, 'a finite number >= 0', value);
}

/*
 * The engine's own getters and methods of typed arrays, which a caller's object cannot replace or shadow (a
 * subclass's or an own `length`, `buffer` or `set`): the element type's name (undefined for anything else, a
 * Proxy of a typed array too), the buffer, the offset, the sizes, and the copy.
 */
// (Marked pure, as is DEFAULTS' freeze: a bundle that uses none of them, such as point-quadtree/three's helper,
// drops them.)
const typedArrayProto = /* @__PURE__ */ Object.getPrototypeOf(Int8Array.prototype);
const typedArrayGetter = (key: PropertyKey) => Object.getOwnPropertyDescriptor(typedArrayProto, key)!.get!;
const typedArrayName: (this: unknown) => string | undefined = /* @__PURE__ */ typedArrayGetter(
  Symbol.toStringTag,
);
const typedArrayBuffer: (this: ArrayBufferView) => ArrayBufferLike =
  /* @__PURE__ */ typedArrayGetter('buffer');
const typedArrayByteOffset: (this: ArrayBufferView) => number =
  /* @__PURE__ */ typedArrayGetter('byteOffset');
const typedArrayByteLength: (this: ArrayBufferView) => number =
  /* @__PURE__ */ typedArrayGetter('byteLength');
const typedArrayLength: (this: ArrayBufferView) => number = /* @__PURE__ */ typedArrayGetter('length');
const typedArraySet: (this: ArrayBufferView, source: ArrayLike<number>, offset?: number) => void =
  typedArrayProto.set;
/** ArrayBuffer's `detached` getter where the engine has it (not Node 20), and what stands in for it. */
const arrayBufferDetached = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')?.get;
const arrayBufferSlice = ArrayBuffer.prototype.slice;
const sharedByteLength =
  typeof SharedArrayBuffer === 'undefined'
    ? undefined
    : Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength')!.get!;

/** The element type of a typed array ('Int32Array', ...), whatever its class says; undefined for anything else. */
export function typedArrayType(value: unknown): string | undefined {
  return typedArrayName.call(value);
}

/** The length of a typed array, by the engine's own getter (a subclass's `length` cannot lie). */
export function lengthOf(a: ArrayBufferView): number {
  return typedArrayLength.call(a);
}

/** `target.set(source, offset)` by the engine's own method (a subclass's `set` is never called). */
export function copyInto(target: ArrayBufferView, source: ArrayLike<number>, offset = 0): void {
  typedArraySet.call(target, source, offset);
}

/**
 * A view of the first `n` entries of a Float32Array or Float64Array `a` (n <= its length), made by the
 * engine's own constructor over `a`'s buffer (read by the engine's getters: a subclass cannot answer another
 * array); null for any other element type.
 */
export function prefixView(a: ArrayBufferView, n: number): Float32Array | Float64Array | null {
  const type = typedArrayName.call(a);
  if (type !== 'Float32Array' && type !== 'Float64Array') return null;
  const buffer = typedArrayBuffer.call(a) as ArrayBuffer;
  const offset = typedArrayByteOffset.call(a);
  return type === 'Float32Array' ? new Float32Array(buffer, offset, n) : new Float64Array(buffer, offset, n);
}

/** A SharedArrayBuffer's size in bytes, by its own getter; -1 for anything else (a Proxy of one too). */
export function sharedBytes(value: unknown): number {
  if (sharedByteLength === undefined) return -1;
  try {
    return sharedByteLength.call(value) as number;
  } catch {
    return -1;
  }
}

/**
 * Whether a typed array's buffer is detached (transferred, e.g. to a worker): its length then reads 0. Only
 * asked of typed arrays of length 0 (on Node 20 it tries a copy of nothing, which throws when detached).
 */
function isDetached(a: ArrayBufferView): boolean {
  const buffer = typedArrayBuffer.call(a);
  if (sharedBytes(buffer) >= 0) return false;
  if (arrayBufferDetached !== undefined) return arrayBufferDetached.call(buffer) === true;
  try {
    arrayBufferSlice.call(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * Throws the TypeError of a typed array over a detached buffer (never an array of anything) if `value`, a
 * typed array of length 0, is one. Out of line: the checks call it only for length 0.
 */
function notDetached(name: string, value: ArrayBufferView): void {
  if (!isDetached(value)) return;
  throw new TypeError(
    `${NAME}: ${name} must be over a buffer that is not detached, got ${describe(value)} over a detached buffer`,
  );
}

/** The element types each kind of typed-array output takes: ids (exact to MAX_ID and beyond), counts, sums. */
export const ID_OUTPUT: readonly string[] = ['Int32Array', 'Uint32Array'];
export const COUNT_OUTPUT: readonly string[] = ['Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array'];
export const SUM_OUTPUT: readonly string[] = ['Float32Array', 'Float64Array'];

/**
 * The one check of every typed-array output of the library (the `*Into` queries' ids, the counts and sums of
 * querySeparationInto and of a SeparationTeam): a typed array of one of `types`, told by the engine's own
 * getters, so that a Proxy of a typed array is refused (its every read would run the caller's code), a
 * subclass or a typed array of another realm is taken as the typed array it is, and a `length` of its own
 * cannot lie; not over a detached buffer. Returns its length. Nothing of the caller's is called.
 * @throws TypeError naming `name` and what it got (worded by {@link describe}).
 */
export function checkOutput(name: string, value: unknown, types: readonly string[]): number {
  // Small, with the throws apart, so that the engine inlines it into every query (measured: with them in
  // its body, the frame of moveAll + 101 queryCircleInto allocated 32 bytes, every frame).
  if (!accepts(types, typedArrayName.call(value))) wrongOutput(name, value, types);
  const length = typedArrayLength.call(value as ArrayBufferView);
  if (length === 0) notDetached(name, value as ArrayBufferView);
  return length;
}

/** checkOutput's TypeError for a value that is none of `types`. */
function wrongOutput(name: string, value: unknown, types: readonly string[]): never {
  const last = types.length - 1;
  const list = `${types.slice(0, last).join(', ')} or ${types[last]}`;
  mustBe(TypeError, name, `${article(list)} ${list}`, value);
}

/** Whether `type` is one of `types` (a loop of ===: a third of the cost of includes, per query). */
function accepts(types: readonly string[], type: string | undefined): boolean {
  for (let i = 0; i < types.length; i++) if (types[i] === type) return true;
  return false;
}

/** "a" or "an", as the word after it needs. */
function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}

/** Output arrays of ids must hold every id exactly: Int32Array or Uint32Array, nothing narrower. */
export function checkIdArray(name: string, value: unknown): number {
  return checkOutput(name, value, ID_OUTPUT);
}

/**
 * Two outputs written in the same call must not share memory: the same array, or views of one buffer whose
 * bytes overlap, would overwrite one output's entries with the other's. Checked by the engine's own getters
 * (see {@link checkOutput}), so a view cannot hide its buffer.
 */
export function checkSeparate(nameA: string, a: ArrayBufferView, nameB: string, b: ArrayBufferView): void {
  if (a === b)
    throw new RangeError(`${NAME}: ${nameA} and ${nameB} must be two arrays, got the same one twice`);
  if (typedArrayBuffer.call(a) !== typedArrayBuffer.call(b)) return;
  const startA = typedArrayByteOffset.call(a);
  const startB = typedArrayByteOffset.call(b);
  const from = Math.max(startA, startB);
  const to = Math.min(startA + typedArrayByteLength.call(a), startB + typedArrayByteLength.call(b));
  if (from < to) {
    throw new RangeError(
      `${NAME}: ${nameA} and ${nameB} must not share memory, got views of one buffer that overlap in its ` +
        `bytes ${from} to ${to - 1}`,
    );
  }
}

/** A callback of visitNodes, visitCircle or forEachPair: checked first, even where it would not be called. */
export function checkCallback(name: string, value: unknown): void {
  if (typeof value !== 'function') mustBe(TypeError, name, 'a function', value);
}

/** The plain array that queryCircle, queryRect and nearest append ids to, checked before the query runs. */
export function checkOutArray(name: string, value: unknown): void {
  if (!Array.isArray(value)) mustBe(TypeError, name, 'an array', value);
}

/**
 * An input array (ids, xs, ys): an object (typed or plain array, or any object with a length) whose length
 * is an integer >= 0. Returns the length, read once; a typed array's by the engine's own getter (a
 * subclass's `length` cannot lie), and one over a detached buffer is refused. Null, a number or a string is
 * a TypeError, and so is a length that is not a number; a negative or fractional length is a RangeError.
 */
export function checkArrayLike(name: string, value: unknown): number {
  if (value === null || typeof value !== 'object') mustBe(TypeError, name, 'an array or typed array', value);
  if (typedArrayName.call(value) !== undefined) {
    const n = typedArrayLength.call(value as ArrayBufferView);
    if (n === 0) notDetached(name, value as ArrayBufferView);
    return n;
  }
  const length = (value as ArrayLike<unknown>).length;
  if (typeof length !== 'number') notANumber(`${name}.length`, length);
  if (!Number.isSafeInteger(length) || length < 0)
    mustBe(RangeError, `${name}.length`, 'an integer >= 0', length);
  return length;
}

/**
 * Whether an input array's entries cannot change during a call that runs none of the caller's code: a
 * typed array over an ArrayBuffer (not a SharedArrayBuffer, which another thread may write). Such an input
 * may be read twice (checked, then used). Anything else (a plain array, whose index may be a getter, a
 * Proxy, a view of a SharedArrayBuffer) is read once, into a copy that is checked and used.
 */
export function isFixed(value: unknown): boolean {
  // No exception is thrown and caught per call (moveAll runs every frame). A SharedArrayBuffer is not an
  // ArrayBuffer; nor is an ArrayBuffer of another realm, which is then copied too (correct, only slower).
  return (
    typedArrayName.call(value) !== undefined &&
    typedArrayBuffer.call(value as ArrayBufferView) instanceof ArrayBuffer
  );
}

/** A plain array with entries 0..n-1 of `value`, each read once (see isFixed). */
export function snapshot(value: ArrayLike<number>, n: number): ArrayLike<number> {
  const copy: number[] = [];
  for (let i = 0; i < n; i++) copy.push(value[i]);
  return copy;
}

export function checkId(id: number): void {
  if (typeof id !== 'number') notANumber('id', id);
  if (!Number.isInteger(id) || id < 0 || id > MAX_ID)
    mustBe(RangeError, 'id', `an integer from 0 to ${MAX_ID}`, id);
}

export function checkCircle(x: number, y: number, radius: number): void {
  checkCoordinate('x', x);
  checkCoordinate('y', y);
  checkRadius('radius', radius);
}

export function checkRect(minX: number, minY: number, maxX: number, maxY: number): void {
  checkCoordinate('minX', minX);
  checkCoordinate('minY', minY);
  checkCoordinate('maxX', maxX);
  checkCoordinate('maxY', maxY);
  if (minX > maxX || minY > maxY) {
    throw new RangeError(
      `${NAME}: queryRect needs minX <= maxX and minY <= maxY, got (${minX}, ${minY}, ${maxX}, ${maxY})`,
    );
  }
}

/** Throws (naming the extent) if a root spanning minX..maxX, minY..maxY would not have a finite size. */
export function checkExtent(minX: number, minY: number, maxX: number, maxY: number): void {
  if (!(Number.isFinite(maxX - minX) && Number.isFinite(maxY - minY))) {
    throw new RangeError(
      `${NAME}: the points span x ${minX} .. ${maxX}, y ${minY} .. ${maxY}: ` +
        'a root that wide or deep is not a finite number of units across',
    );
  }
}

/** The error of a query whose output array (length `cap`) filled up before the query ended. */
export function outOfRoom(cap: number, size: number): never {
  throw new RangeError(
    `${NAME}: the output array (length ${cap}) is too small for the query's answer; ` +
      `give it length >= size (${size})`,
  );
}

/** The constructor's options, checked, with the defaults filled in. */
export interface CheckedOptions {
  readonly bounds: Bounds;
  readonly maxItems: number;
  readonly minSize: number;
  readonly looseness: number;
}

/**
 * An options argument (the constructor's, a SeparationTeam's): an object, or undefined where options may be
 * left out (then `{}`). Anything else is a TypeError. Read each option of it once (it may be a Proxy or
 * have getters).
 */
export function checkOptionsObject(value: unknown, optional: boolean): object {
  if (value === undefined && optional) return {};
  if (value === null || typeof value !== 'object') mustBe(TypeError, 'options', 'an object', value);
  return value;
}

/** A numeric option as read: `fallback` where undefined; a TypeError where not a number at all. */
export function optionNumber(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') notANumber(name, value);
  return value;
}

/** A true / false option as read: false where undefined; a TypeError for anything else. */
export function optionFlag(name: string, value: unknown): boolean {
  if (value === undefined || typeof value === 'boolean') return value === true;
  mustBe(TypeError, name, 'true or false', value);
}

/**
 * Checks the constructor's options and fills in defaults, reading each once: TypeError for options or
 * bounds that are not objects and for a value that is not a number; RangeError naming the first value out
 * of range.
 */
export function checkOptions(options: QuadtreeOptions): CheckedOptions {
  const o = checkOptionsObject(options, false) as Partial<QuadtreeOptions>;
  const b = o.bounds;
  if (b === null || typeof b !== 'object') mustBe(TypeError, 'bounds', '{minX, minY, maxX, maxY}', b);
  const minX = boundsField('minX', b.minX);
  const minY = boundsField('minY', b.minY);
  const maxX = boundsField('maxX', b.maxX);
  const maxY = boundsField('maxY', b.maxY);
  if (!(minX < maxX) || !(minY < maxY)) {
    throw new RangeError(
      `${NAME}: bounds must not be empty (minX < maxX and minY < maxY), got ` +
        `{minX: ${minX}, minY: ${minY}, maxX: ${maxX}, maxY: ${maxY}}`,
    );
  }
  if (!Number.isFinite(maxX - minX) || !Number.isFinite(maxY - minY)) {
    throw new RangeError(`${NAME}: bounds are too large: their width and height must be finite`);
  }
  const maxItems = optionNumber('maxItems', o.maxItems, DEFAULTS.maxItems);
  if (!Number.isInteger(maxItems) || maxItems < 1 || maxItems > 0x7fffffff) {
    mustBe(RangeError, 'maxItems', 'an integer from 1 to 2147483647', maxItems);
  }
  const minSize = optionNumber('minSize', o.minSize, DEFAULTS.minSize);
  if (!Number.isFinite(minSize) || minSize <= 0)
    mustBe(RangeError, 'minSize', 'a finite number > 0', minSize);
  const looseness = optionNumber('looseness', o.looseness, DEFAULTS.looseness);
  if (!Number.isFinite(looseness) || looseness < 0)
    mustBe(RangeError, 'looseness', 'a finite number >= 0', looseness);
  return { bounds: { minX, minY, maxX, maxY }, maxItems, minSize, looseness };
}

/** One field of the bounds, as read: a TypeError if not a number, a RangeError if not finite. */
function boundsField(key: string, value: unknown): number {
  checkCoordinate(`bounds.${key}`, value as number);
  return value as number;
}

/**
 * Checks a circle (throws naming what is wrong) and puts it in q[2..4] (x, y, radius): the entry points'
 * scratch for the shape they hand to a query, so no double is boxed on the way.
 */
export function circleArg(q: Float64Array, x: number, y: number, radius: number): void {
  // Number.isFinite and typeof convert nothing, so a string or an object with valueOf fails here.
  if (
    !(
      Number.isFinite(x) &&
      Number.isFinite(y) &&
      typeof radius === 'number' &&
      radius >= 0 &&
      radius < Infinity
    )
  ) {
    checkCircle(x, y, radius);
  }
  q[2] = x;
  q[3] = y;
  q[4] = radius;
}

/** Checks a query rectangle (throws naming what is wrong) and puts it in q[2..5]. */
export function rectArg(q: Float64Array, minX: number, minY: number, maxX: number, maxY: number): void {
  // Number.isFinite converts nothing, so a string or an object with valueOf fails here, not later.
  if (
    !(
      Number.isFinite(minX) &&
      Number.isFinite(minY) &&
      Number.isFinite(maxX) &&
      Number.isFinite(maxY) &&
      minX <= maxX &&
      minY <= maxY
    )
  ) {
    checkRect(minX, minY, maxX, maxY);
  }
  q[2] = minX;
  q[3] = minY;
  q[4] = maxX;
  q[5] = maxY;
}
