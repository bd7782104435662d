import { allocatedDuring } from '../../bench/memory';

/**
 * Bytes allocated per call of `calls(perRound)` (which returns something for the result sink), the least
 * of `rounds` rounds, counted in the spaces where code's own objects go (allocatedDuring's `objects`: the
 * compiler's code and metadata left out). Run it warm: what runs once per call is compiled only after some
 * thousands of calls, and until then the engine boxes its numbers. The least, not the mean: a round with a
 * gc counts the whole heap, compiler output included, and on a busy machine the re-compilations come in
 * stretches of up to ~1,500 calls; one clean round is enough. An allocation made by every call shows in
 * every round.
 */
export function leastBytesPerCall(calls: (count: number) => number, perRound = 200, rounds = 12): number {
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    least = Math.min(least, allocatedDuring(() => calls(perRound)).objects / perRound);
  }
  return least;
}
