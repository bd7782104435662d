/** The scene's palette, as '#rrggbb' (what `quadtreeDemo.enemyColor(id)` returns). */
export const COLORS = Object.freeze({
  /** Enemies nobody is looking at: dark. */
  enemy: '#252a34',
  /** Enemies inside the player's detect radius. */
  detected: '#ffc400',
  /** Enemies inside the dragged rectangle (and not detected). */
  rect: '#1fd1f0',
  /** Enemies with a neighbour within the crowd radius, in crowd mode (and neither detected nor in the rectangle). */
  crowd: '#c03ce0',
  player: '#e8322b',
  ring: '#ff2d2d',
  ground: '#8b949e',
  gridMajor: '#6e7781',
  gridMinor: '#7f8892',
  /** Leaf nodes of the quadtree. */
  nodes: '#f2f6fa',
  /** Leaves the last circle query visited. */
  visited: '#ff7a1a',
  /** The map: nodes the last circle query pruned (out of reach), and nodes it covered (inside: no tests). */
  pruned: '#3d5a80',
  covered: '#2fbf71',
  sky: '#c6d3e0',
});
