/**
 * The fused separation join over several threads: {@link SeparationTeam} on the calling thread, and
 * {@link serveSeparation} for each helper thread's script. A subpath of its own (`point-quadtree/parallel`)
 * so that programs that use one thread do not load it.
 */
export { SeparationTeam } from './parallel/team';
export type {
  OneThreadReason,
  SeparationHelperPort,
  SeparationTeamFigures,
  SeparationTeamOptions,
} from './parallel/teamCall';
export { serveSeparation } from './parallel/teamHelper';
export { isSeparationHelperMessage, MAX_HELPERS, type SeparationHelperMessage } from './parallel/teamLayout';
