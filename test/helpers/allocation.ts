import { allocatedDuring } from '../../bench/memory';

/**
 * Bytes allocated per call of `calls(perRound)` (which returns something for the result sink), the least
 * of `rounds` rounds. Run it warm: what runs once per call is compiled only after some thousands of calls,
 * and until then the engine boxes its numbers. The least, not the mean: the engine's re-compilations put
 * their code on the heap too, and on a busy machine they come in stretches of up to ~1,500 calls; one
 * clean round is enough. An allocation made by every call shows in every round.
 */
export function leastBytesPerCall(calls: (count: number) => number, perRound = 200, rounds = 12): number {
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    least = Math.min(least, allocatedDuring(() => calls(perRound)).bytes / perRound);
  }
  return least;
}
