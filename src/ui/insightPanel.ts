/**
 * The panel that holds the top-down map, its legend (the three node kinds with their counts) and the cost
 * plot. Shown by the `map` setting; the app feeds it (src/app/insight.ts).
 */
import type { GroundRect } from '../sim/world';
import { InsightMap, type MapColors } from './map';
import { CostPlot, type Series } from './plot';

export type PanelColors = MapColors & { plot: Record<Series, string> };

const KINDS = [
  ['visited', 'visited: reached and tested'],
  ['pruned', 'pruned: out of reach, skipped'],
  ['covered', 'covered: inside, no tests'],
] as const;

const PLOT_LABELS: readonly [Series, string][] = [
  ['query', 'tree query'],
  ['scan', 'scan'],
  ['pairs', 'crowd pairs'],
  ['allPairs', 'O(n²) pairs'],
];

export class InsightPanel {
  readonly element: HTMLElement;
  readonly map: InsightMap;
  readonly plot: CostPlot;
  private readonly counts = new Map<string, HTMLElement>();
  private readonly scanLabel: HTMLElement;

  /** The panel for a level of `ground` (world units). */
  constructor(parent: HTMLElement, colors: PanelColors, ground: GroundRect) {
    this.element = document.createElement('div');
    this.element.id = 'map';
    this.map = new InsightMap(colors, ground);
    this.plot = new CostPlot(colors.plot);
    const legend = document.createElement('ul');
    legend.className = 'legend';
    for (const [key, label] of KINDS) legend.append(this.item(colors[key], label, key));
    const plotLegend = document.createElement('ul');
    plotLegend.className = 'legend';
    for (const [key, label] of PLOT_LABELS) plotLegend.append(this.item(colors.plot[key], label, null));
    this.scanLabel = plotLegend.children[1].lastChild as HTMLElement;
    this.element.append(this.map.element, legend, this.plot.canvas, plotLegend);
    parent.append(this.element);
  }

  private item(colour: string, label: string, countKey: string | null): HTMLElement {
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = colour;
    const text = document.createElement('span');
    text.textContent = label;
    li.append(swatch, text);
    if (countKey !== null) {
      const count = document.createElement('b');
      count.dataset.kind = countKey;
      count.textContent = '–';
      li.append(count);
      this.counts.set(countKey, count);
    }
    return li;
  }

  set visible(on: boolean) {
    this.element.hidden = !on;
  }

  /** The legend's counts (a few times per second). */
  setCounts(visited: number, pruned: number, covered: number, scanMeasured: boolean): void {
    this.setText(this.counts.get('visited')!, String(visited));
    this.setText(this.counts.get('pruned')!, String(pruned));
    this.setText(this.counts.get('covered')!, String(covered));
    this.setText(this.scanLabel, scanMeasured ? 'scan (measured)' : 'scan (estimated)');
  }

  private setText(cell: HTMLElement, text: string): void {
    if (cell.textContent !== text) cell.textContent = text;
  }

  dispose(): void {
    this.element.remove();
  }
}
