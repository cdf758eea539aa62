/**
 * Draws a laid-out lineage graph on one <canvas> (Canvas 2D): boxes, labels and edges, with pan and
 * zoom. Built for graphs of thousands of nodes: setting up is a few typed arrays (no element objects,
 * no style engine), each frame draws only what is in view, grouped by colour so the canvas changes
 * state a few dozen times per frame, not per element, and labels are left out when too small to read.
 * It replaced Cytoscape.js here, whose element and style set-up plus first frame took 2-3 s for
 * 2,000 nodes on the 2-core test machine (docs/web-ui.md, "Performance").
 *
 * Coordinates: node positions are box centres in graph units; on screen a point is
 * `graph * zoom + pan` (CSS pixels).
 */

export interface DrawNode {
  id: string;
  kind: 'job' | 'dataset' | 'field';
  /** A job's latest run state (COMPLETED, FAILED, ...) or null. */
  state: string | null;
  text: string;
  /** Box width (its label's) and centre. */
  w: number;
  x: number;
  y: number;
}

export interface DrawEdge {
  id: string;
  source: number;
  target: number;
  staleness: 'fresh' | 'recent' | 'stale' | 'unknown';
  failed: boolean;
}

export interface Marks {
  focus: string | null;
  selected: string | null;
  /** Highlighted path: these node and edge ids drawn strong, everything else faded. */
  path: { nodes: string[]; edges: string[] } | null;
}

export interface RendererOptions {
  nodeHeight: number;
  fontSize: number;
  minZoom: number;
  maxZoom: number;
  /** A tap (click without drag) on a node (its id) or on the background (null). */
  onTap: (id: string | null, shiftKey: boolean) => void;
}

interface Palette {
  fg: string;
  bg: string;
  font: string;
  accent: string;
  edge: string;
  border: string;
  job: string;
  dataset: string;
  field: string;
  state: Record<string, string>;
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function readPalette(): Palette {
  return {
    fg: cssVar('--fg') || '#000',
    bg: cssVar('--bg') || '#fff',
    font: cssVar('--font') || 'sans-serif',
    accent: cssVar('--accent') || '#06c',
    edge: cssVar('--edge') || '#888',
    border: cssVar('--border-strong') || '#888',
    job: cssVar('--node-job') || '#fff',
    dataset: cssVar('--node-dataset') || '#eef',
    field: cssVar('--node-field') || '#f3effa',
    state: {
      COMPLETED: cssVar('--state-completed'),
      FAILED: cssVar('--state-failed'),
      RUNNING: cssVar('--state-running'),
      ABORTED: cssVar('--state-aborted'),
      NONE: cssVar('--state-none'),
    },
  };
}

/** Labels smaller than this on screen (CSS px) are not drawn: unreadable, and the costliest part of a frame. */
const MIN_LABEL_PX = 5;
/** Below this zoom, edges lose their arrowheads. */
const MIN_ARROW_ZOOM = 0.3;
const FADED = 0.15;
const DRAG_PX = 4;

/** Appends `i` to the group `key` of `map`. */
function add(map: Map<string, number[]>, key: string, i: number): void {
  const group = map.get(key);
  if (group) group.push(i);
  else map.set(key, [i]);
}

export class GraphRenderer {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly index = new Map<string, number>();
  private zoomLevel = 1;
  private panX = 0;
  private panY = 0;
  private width = 0;
  private height = 0;
  private dpr = 1;
  private frame = 0;
  private palette: Palette;
  private marks: Marks = { focus: null, selected: null, path: null };
  private pathNodes = new Set<number>();
  private pathEdges = new Set<number>();
  private readonly resize: ResizeObserver;
  private readonly cleanup: (() => void)[] = [];

  constructor(
    private readonly host: HTMLElement,
    readonly nodes: DrawNode[],
    readonly edges: DrawEdge[],
    private readonly opts: RendererOptions,
  ) {
    for (const [i, n] of nodes.entries()) this.index.set(n.id, i);
    this.canvas = document.createElement('canvas');
    this.canvas.style.display = 'block';
    this.canvas.style.touchAction = 'none';
    host.appendChild(this.canvas);
    const ctx = this.canvas.getContext('2d', { alpha: true });
    if (!ctx) throw new Error('no 2D canvas');
    this.ctx = ctx;
    this.palette = readPalette();
    this.measure();
    this.resize = new ResizeObserver(() => {
      if (this.measure()) this.requestDraw();
    });
    this.resize.observe(host);
    this.listen();
  }

  /** Re-reads the colours (light/dark switch) and redraws. */
  restyle(): void {
    this.palette = readPalette();
    this.requestDraw();
  }

  setMarks(marks: Marks): void {
    this.marks = marks;
    this.pathNodes = new Set((marks.path?.nodes ?? []).map((id) => this.index.get(id)).filter((i) => i !== undefined));
    const edgeIndex = new Map(this.edges.map((e, i) => [e.id, i]));
    this.pathEdges = new Set((marks.path?.edges ?? []).map((id) => edgeIndex.get(id)).filter((i) => i !== undefined));
    this.requestDraw();
  }

  /** The ids of the nodes and edges drawn as the highlighted path. */
  highlighted(): string[] {
    return [...[...this.pathNodes].map((i) => this.nodes[i].id), ...[...this.pathEdges].map((i) => this.edges[i].id)];
  }

  get zoom(): number {
    return this.zoomLevel;
  }

  /** The whole graph in view, with `padding` CSS px around it. */
  fit(padding = 30): void {
    if (this.nodes.length === 0) return;
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    const h = this.opts.nodeHeight / 2;
    for (const n of this.nodes) {
      x0 = Math.min(x0, n.x - n.w / 2);
      x1 = Math.max(x1, n.x + n.w / 2);
      y0 = Math.min(y0, n.y - h);
      y1 = Math.max(y1, n.y + h);
    }
    const z = Math.min((this.width - 2 * padding) / (x1 - x0 || 1), (this.height - 2 * padding) / (y1 - y0 || 1));
    this.zoomLevel = this.clampZoom(z);
    this.panX = this.width / 2 - ((x0 + x1) / 2) * this.zoomLevel;
    this.panY = this.height / 2 - ((y0 + y1) / 2) * this.zoomLevel;
    this.requestDraw();
  }

  /** Centres the view on a node, at `zoom` (default: the current zoom). */
  centerOn(id: string, zoom = this.zoomLevel): void {
    const i = this.index.get(id);
    if (i === undefined) return;
    this.zoomLevel = this.clampZoom(zoom);
    this.panX = this.width / 2 - this.nodes[i].x * this.zoomLevel;
    this.panY = this.height / 2 - this.nodes[i].y * this.zoomLevel;
    this.requestDraw();
  }

  /** Zooms by `factor` keeping the point (CSS px in the canvas; default its centre) still. */
  zoomBy(factor: number, at = { x: this.width / 2, y: this.height / 2 }): void {
    const z = this.clampZoom(this.zoomLevel * factor);
    const gx = (at.x - this.panX) / this.zoomLevel;
    const gy = (at.y - this.panY) / this.zoomLevel;
    this.zoomLevel = z;
    this.panX = at.x - gx * z;
    this.panY = at.y - gy * z;
    this.requestDraw();
  }

  panBy(dx: number, dy: number): void {
    this.panX += dx;
    this.panY += dy;
    this.requestDraw();
  }

  /** Where a node's centre is drawn, in page (client) coordinates. */
  clientPoint(id: string): { x: number; y: number } | null {
    const i = this.index.get(id);
    if (i === undefined) return null;
    const rect = this.canvas.getBoundingClientRect();
    return {
      x: rect.left + this.nodes[i].x * this.zoomLevel + this.panX,
      y: rect.top + this.nodes[i].y * this.zoomLevel + this.panY,
    };
  }

  /** The node under a canvas point (CSS px), the topmost (last drawn) first. */
  nodeAt(px: number, py: number): string | null {
    const gx = (px - this.panX) / this.zoomLevel;
    const gy = (py - this.panY) / this.zoomLevel;
    const h = this.opts.nodeHeight / 2;
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const n = this.nodes[i];
      if (Math.abs(gx - n.x) <= n.w / 2 && Math.abs(gy - n.y) <= h) return n.id;
    }
    return null;
  }

  /** Draws now (the first frame), instead of at the next animation frame. */
  drawNow(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.draw();
  }

  requestDraw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  destroy(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    for (const off of this.cleanup) off();
    this.canvas.remove();
  }

  private clampZoom(z: number): number {
    return Math.min(this.opts.maxZoom, Math.max(this.opts.minZoom, z));
  }

  /** Sizes the canvas to its host; true when the size changed. */
  private measure(): boolean {
    const w = this.host.clientWidth;
    const h = this.host.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    if (w === this.width && h === this.height && dpr === this.dpr) return false;
    this.width = w;
    this.height = h;
    this.dpr = dpr;
    this.canvas.width = Math.max(1, Math.round(w * dpr));
    this.canvas.height = Math.max(1, Math.round(h * dpr));
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    return true;
  }

  private listen(): void {
    const c = this.canvas;
    let down: { id: number; x: number; y: number; px: number; py: number; dragged: boolean } | null = null;
    const local = (e: { clientX: number; clientY: number }) => {
      const r = c.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    const onDown = (e: PointerEvent) => {
      if (e.button !== 0) return;
      const p = local(e);
      down = { id: e.pointerId, x: p.x, y: p.y, px: p.x, py: p.y, dragged: false };
      c.setPointerCapture(e.pointerId);
    };
    const onMove = (e: PointerEvent) => {
      if (!down || e.pointerId !== down.id) return;
      const p = local(e);
      if (!down.dragged && Math.hypot(p.x - down.x, p.y - down.y) < DRAG_PX) return;
      down.dragged = true;
      c.style.cursor = 'grabbing';
      this.panBy(p.x - down.px, p.y - down.py);
      down.px = p.x;
      down.py = p.y;
    };
    const onUp = (e: PointerEvent) => {
      if (!down || e.pointerId !== down.id) return;
      const tap = !down.dragged;
      const p = local(e);
      down = null;
      c.style.cursor = '';
      if (tap) this.opts.onTap(this.nodeAt(p.x, p.y), e.shiftKey);
    };
    const onCancel = () => {
      down = null;
      c.style.cursor = '';
    };
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
      this.zoomBy(Math.exp(-e.deltaY * unit * 0.0015), local(e));
    };
    const onHover = (e: PointerEvent) => {
      if (down) return;
      const p = local(e);
      c.style.cursor = this.nodeAt(p.x, p.y) ? 'pointer' : '';
    };
    c.addEventListener('pointerdown', onDown);
    c.addEventListener('pointermove', onMove);
    c.addEventListener('pointermove', onHover);
    c.addEventListener('pointerup', onUp);
    c.addEventListener('pointercancel', onCancel);
    c.addEventListener('wheel', onWheel, { passive: false });
    this.cleanup.push(() => {
      c.removeEventListener('pointerdown', onDown);
      c.removeEventListener('pointermove', onMove);
      c.removeEventListener('pointermove', onHover);
      c.removeEventListener('pointerup', onUp);
      c.removeEventListener('pointercancel', onCancel);
      c.removeEventListener('wheel', onWheel);
    });
  }

  private draw(): void {
    const { ctx, nodes, edges, palette: pal } = this;
    const z = this.zoomLevel;
    const h = this.opts.nodeHeight;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.setTransform(this.dpr * z, 0, 0, this.dpr * z, this.dpr * this.panX, this.dpr * this.panY);
    // The view in graph units, with a margin for borders and overlays.
    const m = 10 / z;
    const vx0 = -this.panX / z - m;
    const vy0 = -this.panY / z - m;
    const vx1 = (this.width - this.panX) / z + m;
    const vy1 = (this.height - this.panY) / z + m;
    const hasPath = this.marks.path !== null;
    const visible: number[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (n.x + n.w / 2 >= vx0 && n.x - n.w / 2 <= vx1 && n.y + h / 2 >= vy0 && n.y - h / 2 <= vy1) visible.push(i);
    }

    // Edges, grouped by look: one stroke (and one fill for the arrowheads) per group.
    const groups = new Map<string, number[]>();
    for (let i = 0; i < edges.length; i++) {
      const e = edges[i];
      const s = nodes[e.source];
      const t = nodes[e.target];
      const ax = s.x + s.w / 2;
      const bx = t.x - t.w / 2;
      if (Math.max(ax, bx) < vx0 || Math.min(ax, bx) > vx1 || Math.max(s.y, t.y) < vy0 || Math.min(s.y, t.y) > vy1)
        continue;
      const onPath = this.pathEdges.has(i);
      const key = `${onPath ? 'path' : hasPath ? 'faded' : e.staleness}|${e.failed && !onPath ? 'failed' : ''}`;
      add(groups, key, i);
    }
    const arrows = z >= MIN_ARROW_ZOOM;
    const order = [...groups.keys()].sort((a, b) => Number(a.startsWith('path')) - Number(b.startsWith('path')));
    for (const key of order) {
      const [look, failed] = key.split('|');
      const colour = look === 'path' ? pal.accent : failed ? pal.state.FAILED : pal.edge;
      ctx.globalAlpha = look === 'faded' ? FADED : look === 'recent' ? 0.75 : look === 'stale' ? 0.5 : 1;
      ctx.strokeStyle = colour;
      ctx.fillStyle = colour;
      ctx.lineWidth = look === 'path' ? 4 : 1.5;
      ctx.setLineDash(look === 'stale' ? [6, 4] : []);
      ctx.beginPath();
      for (const i of groups.get(key)!) {
        const s = nodes[edges[i].source];
        const t = nodes[edges[i].target];
        const ax = s.x + s.w / 2;
        const bx = t.x - t.w / 2 - (arrows ? 6 : 0);
        const bend = Math.max(24, Math.abs(bx - ax) / 2);
        ctx.moveTo(ax, s.y);
        ctx.bezierCurveTo(ax + bend, s.y, bx - bend, t.y, bx, t.y);
      }
      ctx.stroke();
      if (arrows) {
        ctx.setLineDash([]);
        ctx.beginPath();
        for (const i of groups.get(key)!) {
          const t = nodes[edges[i].target];
          const tipX = t.x - t.w / 2;
          ctx.moveTo(tipX, t.y);
          ctx.lineTo(tipX - 7, t.y - 4);
          ctx.lineTo(tipX - 7, t.y + 4);
          ctx.closePath();
        }
        ctx.fill();
      }
    }
    ctx.setLineDash([]);

    // Boxes: fills, then borders, each grouped by colour.
    const alphaOf = (i: number) => (hasPath && !this.pathNodes.has(i) ? FADED : 1);
    const fills = new Map<string, number[]>();
    const borders = new Map<string, number[]>();
    for (const i of visible) {
      const n = nodes[i];
      const a = alphaOf(i);
      const fill = n.kind === 'job' ? pal.job : n.kind === 'field' ? pal.field : pal.dataset;
      add(fills, `${a}|${fill}`, i);
      const border = n.kind === 'job' ? (pal.state[n.state ?? 'NONE'] ?? pal.state.NONE) : pal.border;
      add(borders, `${a}|${n.kind === 'job' ? 3 : 1}|${border}`, i);
    }
    const box = (n: DrawNode) => {
      if (n.kind === 'job') ctx.rect(n.x - n.w / 2, n.y - h / 2, n.w, h);
      else ctx.roundRect(n.x - n.w / 2, n.y - h / 2, n.w, h, 6);
    };
    for (const [key, list] of fills) {
      const [a, colour] = key.split('|');
      ctx.globalAlpha = Number(a);
      ctx.fillStyle = colour;
      ctx.beginPath();
      for (const i of list) box(nodes[i]);
      ctx.fill();
    }
    for (const [key, list] of borders) {
      const [a, width, colour] = key.split('|');
      ctx.globalAlpha = Number(a);
      ctx.strokeStyle = colour;
      ctx.lineWidth = Number(width);
      ctx.beginPath();
      for (const i of list) box(nodes[i]);
      ctx.stroke();
    }

    // Overlays: the path's nodes, the selected node, the start node (double accent border).
    ctx.globalAlpha = 1;
    const overlay = (i: number | undefined, pad: number, alpha: number) => {
      if (i === undefined) return;
      const n = nodes[i];
      ctx.globalAlpha = alpha;
      ctx.fillStyle = pal.accent;
      ctx.beginPath();
      ctx.roundRect(n.x - n.w / 2 - pad, n.y - h / 2 - pad, n.w + 2 * pad, h + 2 * pad, 8);
      ctx.fill();
    };
    for (const i of this.pathNodes) overlay(i, 4, 0.18);
    if (this.marks.selected) overlay(this.index.get(this.marks.selected), 5, 0.25);
    const focus = this.marks.focus === null ? undefined : this.index.get(this.marks.focus);
    if (focus !== undefined) {
      const n = nodes[focus];
      ctx.globalAlpha = alphaOf(focus);
      ctx.strokeStyle = pal.accent;
      ctx.lineWidth = 4;
      ctx.beginPath();
      ctx.rect(n.x - n.w / 2, n.y - h / 2, n.w, h);
      ctx.stroke();
      ctx.strokeStyle = pal.bg;
      ctx.lineWidth = 1.2;
      ctx.stroke();
    }

    // Labels, when big enough to read.
    if (this.opts.fontSize * z >= MIN_LABEL_PX) {
      ctx.fillStyle = pal.fg;
      ctx.font = `${this.opts.fontSize}px ${pal.font}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (const i of visible) {
        ctx.globalAlpha = alphaOf(i);
        ctx.fillText(nodes[i].text, nodes[i].x, nodes[i].y);
      }
    }
    ctx.globalAlpha = 1;
  }
}
