/**
 * Draws a GraphModel on one canvas (renderer.ts: no DOM element per node) at positions from the
 * layered layout. Pan and zoom with mouse, wheel or keyboard (arrows, +, -, 0 to fit); tap selects,
 * shift-tap picks the second end of a path, double-tap re-centres.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { layeredLayout } from './layout';
import type { GraphModel } from './model';
import { GraphRenderer, type DrawEdge, type DrawNode } from './renderer';

export interface GraphCanvasProps {
  model: GraphModel;
  /** The node the graph was asked for (drawn with a thick border). */
  focus: string | null;
  selected: string | null;
  /** Highlighted path (node and edge ids); everything else is dimmed. */
  path: { nodes: string[]; edges: string[] } | null;
  onTap: (id: string | null, additive: boolean) => void;
  onDoubleTap?: (id: string) => void;
  /** Accessible name of the canvas region. */
  label: string;
}

export interface GraphHandle {
  renderer: GraphRenderer;
  model: GraphModel;
  /** Where a node is drawn, in page (client) coordinates: for tests and the bench to click it. */
  clientPoint(id: string): { x: number; y: number } | null;
  /** The ids of the nodes and edges the renderer draws as the highlighted path (empty without a path). */
  pathIds(): string[];
}

declare global {
  interface Window {
    /** The graph on screen (for end-to-end tests and the UI bench). */
    lineageGraph?: GraphHandle;
  }
}

const MAX_LABEL = 34;
const FONT_SIZE = 12;
const NODE_HEIGHT = 30;

/** Label widths measured with the canvas's own font, so boxes fit their text and columns stay narrow. */
function labelWidths(labels: string[]): number[] {
  const ctx = document.createElement('canvas').getContext('2d');
  const family = getComputedStyle(document.documentElement).getPropertyValue('--font').trim();
  const font = `${FONT_SIZE}px ${family || 'sans-serif'}`;
  if (ctx) ctx.font = font;
  return labels.map((l) => Math.max(60, Math.ceil(ctx ? ctx.measureText(l).width : l.length * 7) + 20));
}

function clip(s: string): string {
  return s.length > MAX_LABEL ? `${s.slice(0, 15)}…${s.slice(-(MAX_LABEL - 16))}` : s;
}

export function GraphCanvas({ model, focus, selected, path, onTap, onDoubleTap, label }: GraphCanvasProps) {
  const host = useRef<HTMLDivElement>(null);
  const rendererRef = useRef<GraphRenderer | null>(null);
  const marks = useRef({ focus, selected, path });
  marks.current = { focus, selected, path };
  const handlers = useRef({ onTap, onDoubleTap });
  handlers.current = { onTap, onDoubleTap };
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [timings, setTimings] = useState<Record<string, number> | null>(null);

  useEffect(() => {
    let cancelled = false;
    let renderer: GraphRenderer | null = null;
    const t0 = performance.now();
    setState('loading');
    try {
      if (!host.current) return;
      const index = new Map(model.nodes.map((n, i) => [n.id, i]));
      const texts = model.nodes.map((n) => clip(n.label));
      const widths = labelWidths(texts);
      const edgePairs = model.edges.map((e): [number, number] => [index.get(e.source)!, index.get(e.target)!]);
      const layout = layeredLayout({ widths, edges: edgePairs }, { layerGap: 48, nodeGap: 12 });
      const t1 = performance.now();
      const nodes: DrawNode[] = model.nodes.map((n, i) => ({
        id: n.id,
        kind: n.kind,
        state: n.state,
        text: texts[i],
        w: widths[i],
        x: layout.x[i],
        y: layout.y[i],
      }));
      const edges: DrawEdge[] = model.edges.map((e, i) => ({
        id: e.id,
        source: edgePairs[i][0],
        target: edgePairs[i][1],
        staleness: e.staleness,
        failed: e.lastRunState === 'FAILED',
      }));
      // Double taps are told apart here: two quick taps on two different nodes (select one,
      // shift-click another) must not re-centre.
      let lastTap = { id: '', at: 0 };
      renderer = new GraphRenderer(host.current, nodes, edges, {
        nodeHeight: NODE_HEIGHT,
        fontSize: FONT_SIZE,
        minZoom: 0.02,
        maxZoom: 3,
        onTap: (id, additive) => {
          if (id === null) {
            lastTap = { id: '', at: 0 };
            handlers.current.onTap(null, false);
            return;
          }
          const now = performance.now();
          if (!additive && lastTap.id === id && now - lastTap.at < 400 && handlers.current.onDoubleTap) {
            lastTap = { id: '', at: 0 };
            handlers.current.onDoubleTap(id);
            return;
          }
          lastTap = { id, at: now };
          handlers.current.onTap(id, additive);
        },
      });
      rendererRef.current = renderer;
      renderer.setMarks(marks.current);
      renderer.fit(30);
      if (focus && index.has(focus) && model.nodes.length > 60) {
        // Big graphs open around the node that was asked for, at a readable zoom.
        renderer.centerOn(focus, Math.max(renderer.zoom, 0.6));
      }
      const t2 = performance.now();
      renderer.drawNow();
      const t3 = performance.now();
      const r = renderer;
      window.lineageGraph = {
        renderer: r,
        model,
        clientPoint: (id) => r.clientPoint(id),
        pathIds: () => r.highlighted(),
      };
      // Ready once the browser has put the first frame on screen.
      requestAnimationFrame(() => {
        if (cancelled) return;
        const t4 = performance.now();
        // Where the time went (shown on the element for the UI bench).
        setTimings({
          totalMs: Math.round(t4 - t0),
          layoutMs: Math.round(t1 - t0),
          initMs: Math.round(t2 - t1),
          drawMs: Math.round(t3 - t2),
          firstFrameMs: Math.round(t4 - t2),
        });
        setState('ready');
        performance.mark('lineage-graph-ready');
      });
    } catch (err) {
      console.error(err);
      setState('error');
    }
    return () => {
      cancelled = true;
      renderer?.destroy();
      rendererRef.current = null;
      window.lineageGraph = undefined;
    };
  }, [model]);

  // Selection, path and focus follow the props without rebuilding the graph.
  useEffect(() => {
    rendererRef.current?.setMarks({ focus, selected, path });
  }, [selected, path, focus, model]);

  // Colours follow the system's light/dark switch.
  useEffect(() => {
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const update = () => rendererRef.current?.restyle();
    mq.addEventListener('change', update);
    return () => mq.removeEventListener('change', update);
  }, [model]);

  const onKey = (e: KeyboardEvent) => {
    const r = rendererRef.current;
    if (!r) return;
    const step = 60;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [step, 0],
      ArrowRight: [-step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    if (moves[e.key]) r.panBy(moves[e.key][0], moves[e.key][1]);
    else if (e.key === '+' || e.key === '=') r.zoomBy(1.25);
    else if (e.key === '-') r.zoomBy(1 / 1.25);
    else if (e.key === '0') r.fit(30);
    else return;
    e.preventDefault();
  };

  return (
    <div class="graph-wrap">
      <div
        class="graph-canvas"
        ref={host}
        tabIndex={0}
        role="img"
        aria-label={
          `${label}: ${model.nodes.length} nodes, ${model.edges.length} edges. Arrow keys pan, plus and ` +
          `minus zoom, 0 fits.`
        }
        onKeyDown={onKey}
        data-testid="graph"
        data-state={state}
        data-node-count={model.nodes.length}
        data-edge-count={model.edges.length}
        data-render-ms={timings?.totalMs}
        data-timings={timings ? JSON.stringify(timings) : undefined}
      />
      <div class="graph-zoom" role="group" aria-label="Zoom">
        <button type="button" onClick={() => rendererRef.current?.zoomBy(1.25)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => rendererRef.current?.zoomBy(1 / 1.25)} aria-label="Zoom out">
          −
        </button>
        <button
          type="button"
          onClick={() => rendererRef.current?.fit(30)}
          aria-label="Fit the whole graph"
          data-testid="fit"
        >
          Fit
        </button>
      </div>
      {state === 'loading' && <div class="graph-overlay">Drawing {model.nodes.length} nodes…</div>}
      {state === 'error' && <div class="graph-overlay error">The graph could not be drawn.</div>}
    </div>
  );
}
