import { allocatedDuring } from '../../bench/memory';

/**
 * Whether these tests run on Stryker's instrumented copy of the library (`npm run mutate`, whose worker
 * processes Stryker marks with STRYKER_MUTATOR_WORKER). The instrumented code records coverage and checks
 * which mutant is active on every call, and that allocates (1,192 bytes per sync where the library itself
 * makes none), so a figure of bytes per call says nothing about the library there: the allocation tests skip
 * themselves in it. Everywhere else, `npm run mutate -- --recheck` included (it runs a mutant uninstrumented),
 * they run.
 */
export const instrumented = process.env.STRYKER_MUTATOR_WORKER !== undefined;

/**
 * Bytes allocated per call of `calls(perRound)` (which returns something for the result sink), the least
 * of `rounds` rounds, counted in the spaces where code's own objects go (allocatedDuring's `objects`: the
 * compiler's code and metadata left out). Run it warm: what runs once per call is compiled only after some
 * thousands of calls, and until then the engine boxes its numbers. The least, not the mean: a round with a
 * gc counts the whole heap, compiler output included, and on a busy machine the re-compilations come in
 * stretches of up to ~1,500 calls; one clean round is enough. An allocation made by every call shows in
 * every round.
 *
 * On a loaded machine (CI beside other jobs) a compile job can take longer than those `rounds`: the least
 * was once 52.6 bytes per call over 12 rounds of a sync that allocates nothing. So while the least is still
 * `settle` bytes per call or more, up to `extra` more rounds run. More rounds never hide an allocation that
 * every call makes (it shows in each of them); they only give the compiler time to finish.
 */
export function leastBytesPerCall(
  calls: (count: number) => number,
  perRound = 200,
  rounds = 12,
  settle = 8,
  extra = 4 * rounds,
): number {
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds + extra; round++) {
    if (round >= rounds && least < settle) break;
    least = Math.min(least, allocatedDuring(() => calls(perRound)).objects / perRound);
  }
  return least;
}
