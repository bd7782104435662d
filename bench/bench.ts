/**
 * `npm run bench`: our PointQuadtree side by side with kdbush, flatbush, rbush, d3-quadtree and brute force
 * on the same seeded data, in one process, so every contender meets the same points and the same machine.
 *
 * Flags:
 *   --quick          reduced sizes and repeats (CI smoke run, well under a minute)
 *   --only W2,W4     run only these parts (W1..W6, memory, alloc; W6 = all pairs within r)
 *   --maxItems N     the PointQuadtree's maxItems (default: the library's default)
 *   --minSize S      the PointQuadtree's minSize (default: the library's default)
 *   --looseness L    looseness of the extra loose-leaf rows in W4/W5 (default DEFAULT_LOOSENESS; 0: none)
 *   --sweep          instead of the comparison: ours alone with maxItems 8, 16, 32, 64, 128
 *   --json           print the results as JSON instead of tables (progress still goes to stderr)
 */
import os from 'node:os';
import type { Contender } from './contender';
import { type AllocResult, runAlloc, runMemory } from './memory';
import {
  describeOptions,
  hasTypedQuery,
  type OursConfig,
  oursCrowd,
  oursFrom,
  oursInsert,
  oursTyped,
} from './ours';
import { pairsTable, pairsTargets, runW6 } from './pairs';
import { brute, d3, flatbush, kdbush, rbush } from './peers';
import { allocTable, sweepTable, targets, targetsText, workloadTable } from './report';
import { sinkChecksum } from './timing';
import { Mismatch } from './verify';
import {
  type Context,
  dropData,
  type Entry,
  type Plan,
  type Row,
  runW1,
  runW2,
  runW3,
  runW4,
  runW5,
  type WorkloadId,
} from './workloads';

/**
 * W4/W5 also run ours with loose leaves (items may stray this far, in world units, before move re-files
 * them): the option a game that moves every point every frame would set. The steps are at most 1 long.
 */
const DEFAULT_LOOSENESS = 2;
const SWEEP_MAX_ITEMS = [8, 16, 32, 64, 128];
const PARTS: readonly WorkloadId[] = ['W1', 'W2', 'W3', 'W4', 'W5', 'memory', 'alloc'];
/** A part: one of the workloads above, or W6 (all pairs within r: its own contenders and table, pairs.ts). */
type Part = WorkloadId | 'W6';
const ALL_PARTS: readonly Part[] = [...PARTS, 'W6'];

interface Args {
  quick: boolean;
  json: boolean;
  sweep: boolean;
  maxItems: number | undefined;
  minSize: number | undefined;
  looseness: number;
  only: Set<Part>;
}

function usage(message: string): never {
  process.stderr.write(
    `bench: ${message}\nusage: npm run bench -- [--quick] [--only W1,W2,...|memory|alloc] [--maxItems N] [--minSize S] [--looseness L] [--sweep] [--json]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    quick: false,
    json: false,
    sweep: false,
    maxItems: undefined,
    minSize: undefined,
    looseness: DEFAULT_LOOSENESS,
    only: new Set(ALL_PARTS),
  };
  for (let k = 0; k < argv.length; k++) {
    const [flag, inline] = argv[k].split('=', 2);
    const value = (): string => inline ?? argv[++k] ?? usage(`${flag} needs a value`);
    if (flag === '--quick') args.quick = true;
    else if (flag === '--json') args.json = true;
    else if (flag === '--sweep') args.sweep = true;
    else if (flag === '--maxItems' || flag === '--max-items') {
      const m = Number(value());
      if (!Number.isInteger(m) || m < 1) usage('--maxItems must be an integer >= 1');
      args.maxItems = m;
    } else if (flag === '--minSize' || flag === '--min-size') {
      const m = Number(value());
      if (!Number.isFinite(m) || m <= 0) usage('--minSize must be a finite number > 0');
      args.minSize = m;
    } else if (flag === '--looseness') {
      const m = Number(value());
      if (!Number.isFinite(m) || m < 0) usage('--looseness must be a finite number >= 0');
      args.looseness = m;
    } else if (flag === '--only') {
      const wanted = value()
        .split(',')
        .map((s) => s.trim().toLowerCase());
      args.only = new Set();
      for (const w of wanted) {
        const part = ALL_PARTS.find((p) => p.toLowerCase() === w || (w === 'mem' && p === 'memory'));
        if (!part) usage(`unknown part ${w} (know ${ALL_PARTS.join(', ')})`);
        args.only.add(part);
      }
    } else usage(`unknown flag ${argv[k]}`);
  }
  return args;
}

function makePlan(quick: boolean): Plan {
  if (quick) {
    return {
      quick,
      sizes: { W1: [1e3, 1e4], W2: [1e4], W3: [1e4], W4: [1e4], W5: [1e4] },
      memoryN: 1e5,
      allocN: 1e4,
      allocFrames: 1000,
      timing: { warmup: 1, samples: 3, minSampleMs: 2 },
      buildTiming: { warmup: 1, samples: 3, minSampleMs: 2 },
      bruteOpsPerPass: 2e7,
    };
  }
  return {
    quick,
    sizes: { W1: [1e3, 1e4, 1e5, 1e6], W2: [1e4, 1e5], W3: [1e4, 1e5], W4: [1e4, 1e5], W5: [1e4, 1e5] },
    memoryN: 1e6,
    allocN: 1e5,
    allocFrames: 1000,
    timing: { warmup: 2, samples: 7, minSampleMs: 20, slowSamples: 5 },
    buildTiming: { warmup: 2, samples: 7, minSampleMs: 20, slowSamples: 5 },
    bruteOpsPerPass: 1e8,
  };
}

function commandLine(argv: readonly string[]): string {
  const rest = argv.join(' ');
  if (process.env.npm_lifecycle_event === 'bench') return `npm run bench${rest ? ` -- ${rest}` : ''}`;
  return `tsx --expose-gc bench/bench.ts${rest ? ` ${rest}` : ''}`;
}

function header(argv: readonly string[], cfg: OursConfig, plan: Plan, looseness: number): string {
  const cpus = os.cpus();
  return [
    '# Quadtree benchmark',
    '',
    `machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()} ${os.arch()}`,
    `node:    ${process.version} (V8 ${process.versions.v8})`,
    `command: ${commandLine(argv)}`,
    `ours:    ${describeOptions(cfg)}`,
    ...(looseness > 0
      ? [
          `         W4/W5 also run it with looseness: ${looseness} (rows "move, looseness ${looseness}"): items may stray`,
          `         that far outside their leaf before move() re-files them`,
        ]
      : []),
    `peers:   ${[kdbush, flatbush, rbush, d3, brute].map((c) => `${c.name}: ${c.options}`).join('\n         ')}`,
    'data:    1000 x 1000 world, seeded mulberry32; uniform, and clustered (20 Gaussian camps, sigma 15, clamped); ids 0..N-1;',
    '         W6 also: world, the same camps over a 1e6 x 1e6 open world (N >= 1e4);',
    '         W4/W5 steps: a random walk that never repeats itself, each step <= 1 long (precomputed table)',
    'method:  same data and process for all; answers checked against brute force before and after timing;',
    `         warm-up, then the median of ${plan.timing.samples} samples (${plan.timing.slowSamples ? `${plan.timing.slowSamples} or 3 for runs over 0.25 s or 1.5 s; ` : ''}a sample repeats`,
    `         the run for >= ${plan.timing.minSampleMs} ms); result sink.`,
    '         "vs kdbush" and "vs brute" are ratios of medians from this run (< 1x = faster); ~ = scaled up from',
    '         evenly spaced queries: brute force in W3/W5 when a full pass exceeds 1e8 distance tests, and rbush',
    '         and d3-quadtree in W3/W5 at N = 1e5 (every 10th point; their full passes take seconds).',
  ].join('\n');
}

function contenders(cfg: OursConfig, typed: boolean, looseness: number) {
  const ours = oursFrom(cfg);
  const loose = { ...cfg, looseness };
  // the loose-leaf rows (W4/W5 only: they are about keeping the index up to date)
  const oursLoose: Entry[] = looseness > 0 ? [{ c: oursFrom(loose), variant: '' }] : [];
  const oursLooseTyped: Entry[] =
    looseness > 0 && typed ? [{ c: oursTyped(loose), variant: 'queryCircleInto' }] : [];
  const w1: Entry[] = [
    { c: ours, variant: 'from' },
    { c: oursInsert(cfg), variant: 'insert' },
    { c: kdbush, variant: '' },
    { c: flatbush, variant: '' },
    { c: rbush, variant: 'load' },
    { c: d3, variant: '' },
    { c: brute, variant: 'copy' },
  ];
  const queries: Entry[] = [
    { c: ours, variant: 'queryCircle' },
    ...(typed ? [{ c: oursTyped(cfg), variant: 'queryCircleInto' }] : []),
    { c: kdbush, variant: '' },
    { c: flatbush, variant: '' },
    { c: rbush, variant: '' },
    { c: d3, variant: '' },
    { c: brute, variant: '' },
  ];
  const peers: Entry[] = [
    { c: kdbush, variant: '' },
    { c: flatbush, variant: '' },
    { c: rbush, variant: '' },
    { c: d3, variant: '' },
    { c: brute, variant: '' },
  ];
  // W4 only: the crowd's tree, whose moveAll runs its pass in the WebAssembly kernel (issue 34's W4 row)
  const oursCrowdFrames: Entry[] = typed ? [{ c: oursCrowd(cfg), variant: '' }] : [];
  const frames: Entry[] = [{ c: ours, variant: '' }, ...oursLoose, ...oursCrowdFrames, ...peers];
  // W5: loose leaves only with the typed query (a pass of N queries is long; the plain one adds nothing)
  const crowd: Entry[] = [
    ...(typed ? [{ c: oursTyped(cfg), variant: 'queryCircleInto' }] : []),
    ...oursLooseTyped,
    { c: ours, variant: '' },
    ...peers,
  ];
  const memory: Entry[] = w1;
  return { w1, queries, frames, crowd, memory };
}

async function runComparison(
  ctx: Context,
  args: Args,
  cfg: OursConfig,
  typed: boolean,
): Promise<AllocResult[]> {
  const list = contenders(cfg, typed, args.looseness);
  const on = (w: WorkloadId) => args.only.has(w);
  if (on('W1')) runW1(ctx, list.w1);
  dropData();
  if (on('W2')) runW2(ctx, list.queries);
  if (on('W3')) runW3(ctx, list.queries);
  if (on('W4')) runW4(ctx, list.frames);
  if (on('W5')) runW5(ctx, list.crowd);
  dropData();
  if (on('memory')) await runMemory(ctx, list.memory);
  dropData();
  return on('alloc') ? runAlloc(ctx, cfg, typed) : [];
}

async function runSweep(
  plan: Plan,
  minSize: number | undefined,
  progress: (m: string) => void,
): Promise<Map<number, Row[]>> {
  const n = plan.quick ? 1e4 : 1e5;
  const sweepPlan: Plan = { ...plan, sizes: { W1: [n], W2: [n], W3: [n], W4: [n], W5: [n] } };
  const out = new Map<number, Row[]>();
  for (const maxItems of SWEEP_MAX_ITEMS) {
    const cfg = { maxItems, minSize };
    const rows: Row[] = [];
    const ctx: Context = { plan: sweepPlan, rows, progress: (m) => progress(`[maxItems ${maxItems}] ${m}`) };
    const ours: Contender = oursFrom(cfg);
    const typed: Contender = oursTyped(cfg);
    runW1(ctx, [
      { c: ours, variant: 'from' },
      { c: oursInsert(cfg), variant: 'insert' },
    ]);
    runW2(ctx, [{ c: typed, variant: 'queryCircleInto' }]);
    runW3(ctx, [{ c: typed, variant: 'queryCircleInto' }]);
    runW4(ctx, [{ c: typed, variant: '' }]);
    runW5(ctx, [{ c: typed, variant: 'queryCircleInto' }]);
    await runMemory(ctx, [
      { c: ours, variant: 'from' },
      { c: oursInsert(cfg), variant: 'insert' },
    ]);
    dropData();
    out.set(maxItems, rows);
  }
  return out;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  const plan = makePlan(args.quick);
  const cfg: OursConfig = { maxItems: args.maxItems, minSize: args.minSize };
  const typed = hasTypedQuery();
  const start = performance.now();
  const progress = (m: string) =>
    process.stderr.write(`[${((performance.now() - start) / 1000).toFixed(1).padStart(6)} s] ${m}\n`);
  const print = (s: string) => {
    if (!args.json && s) process.stdout.write(`${s}\n\n`);
  };

  print(header(argv, cfg, plan, args.looseness));
  if (args.sweep) {
    const sweep = await runSweep(plan, args.minSize, progress);
    print(sweepTable(sweep));
    if (args.json) process.stdout.write(`${JSON.stringify({ sweep: Object.fromEntries(sweep) }, null, 1)}\n`);
  } else {
    const rows: Row[] = [];
    const alloc = await runComparison({ plan, rows, progress }, args, cfg, typed);
    for (const w of PARTS) print(workloadTable(rows, w));
    print(allocTable(alloc));
    const pairRows = args.only.has('W6') ? runW6(plan.quick, plan.timing, progress) : [];
    print(pairsTable(pairRows));
    const lines = [...targets(rows, alloc, plan), ...pairsTargets(pairRows)];
    print(targetsText(lines, plan.quick));
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ command: commandLine(argv), options: describeOptions(cfg), node: process.version, cpu: os.cpus()[0]?.model, cores: os.cpus().length, rows, alloc, pairs: pairRows, targets: lines }, null, 1)}\n`,
      );
    }
  }
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  print(`(finished in ${seconds} s; result sink ${sinkChecksum()})`);
}

main().catch((err: unknown) => {
  if (err instanceof Mismatch) {
    process.stderr.write(`\nWRONG ANSWER: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
