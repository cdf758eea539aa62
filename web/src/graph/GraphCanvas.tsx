/**
 * Draws a GraphModel with Cytoscape.js (one canvas, not one DOM element per node) at positions from
 * the layered layout. Pan and zoom with mouse, wheel or keyboard (arrows, +, -, 0 to fit); tap
 * selects, shift-tap picks the second end of a path, double-tap re-centres.
 *
 * Cytoscape is loaded on demand, so pages without a graph do not download it.
 */
import type { Core, ElementDefinition, StylesheetJson } from 'cytoscape';
import { useEffect, useRef, useState } from 'preact/hooks';
import { layeredLayout } from './layout';
import type { GraphModel } from './model';

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
  cy: Core;
  model: GraphModel;
  /** Where a node is drawn, in page (client) coordinates: for tests and the bench to click it. */
  clientPoint(id: string): { x: number; y: number } | null;
}

declare global {
  interface Window {
    /** The graph on screen (for end-to-end tests and the UI bench). */
    lineageGraph?: GraphHandle;
  }
}

const importCytoscape = () => import('cytoscape');
let cytoscapeModule: ReturnType<typeof importCytoscape> | null = null;

/** Cytoscape, fetched once; pages with a graph call it early so the download overlaps the API call. */
export function loadCytoscape(): ReturnType<typeof importCytoscape> {
  cytoscapeModule ??= importCytoscape();
  return cytoscapeModule;
}

const MAX_LABEL = 34;
const FONT_SIZE = 12;

/** Label widths measured with the canvas's own font, so boxes fit their text and columns stay narrow. */
function labelWidths(labels: string[]): number[] {
  const ctx = document.createElement('canvas').getContext('2d');
  const font = `${FONT_SIZE}px ${css('--font') || 'sans-serif'}`;
  if (ctx) ctx.font = font;
  return labels.map((l) => Math.max(60, Math.ceil(ctx ? ctx.measureText(l).width : l.length * 7) + 20));
}

function clip(s: string): string {
  return s.length > MAX_LABEL ? `${s.slice(0, 15)}…${s.slice(-(MAX_LABEL - 16))}` : s;
}

function css(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function stylesheet(large: boolean): StylesheetJson {
  const text = css('--fg');
  return [
    {
      selector: 'node',
      style: {
        shape: 'round-rectangle',
        width: 'data(w)',
        height: 30,
        label: 'data(text)',
        'font-size': FONT_SIZE,
        'font-family': css('--font') || 'sans-serif',
        color: text,
        'text-valign': 'center',
        'text-halign': 'center',
        'text-max-width': '400px',
        'background-color': css('--node-dataset'),
        'border-width': 1,
        'border-color': css('--border-strong'),
        'min-zoomed-font-size': large ? 7 : 4,
      },
    },
    {
      selector: 'node[kind = "job"]',
      style: {
        shape: 'rectangle',
        'background-color': css('--node-job'),
        'border-width': 3,
        'border-color': css('--state-none'),
      },
    },
    { selector: 'node[kind = "field"]', style: { 'background-color': css('--node-field') } },
    { selector: 'node[state = "COMPLETED"]', style: { 'border-color': css('--state-completed') } },
    { selector: 'node[state = "FAILED"]', style: { 'border-color': css('--state-failed') } },
    { selector: 'node[state = "RUNNING"]', style: { 'border-color': css('--state-running') } },
    { selector: 'node[state = "ABORTED"]', style: { 'border-color': css('--state-aborted') } },
    { selector: 'node.focus', style: { 'border-width': 4, 'border-style': 'double', 'border-color': css('--accent') } },
    {
      selector: 'node:selected, node.selected',
      style: { 'overlay-color': css('--accent'), 'overlay-opacity': 0.25, 'overlay-padding': 5 },
    },
    {
      selector: 'edge',
      style: {
        width: 1.5,
        'line-color': css('--edge'),
        'target-arrow-color': css('--edge'),
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.8,
        'curve-style': large ? 'straight' : 'bezier',
      },
    },
    { selector: 'edge[staleness = "recent"]', style: { opacity: 0.75 } },
    { selector: 'edge[staleness = "stale"]', style: { 'line-style': 'dashed', opacity: 0.5 } },
    {
      selector: 'edge[lastRunState = "FAILED"]',
      style: { 'line-color': css('--state-failed'), 'target-arrow-color': css('--state-failed') },
    },
    { selector: '.faded', style: { opacity: 0.15 } },
    {
      selector: 'edge.path',
      style: {
        width: 4,
        'line-color': css('--accent'),
        'target-arrow-color': css('--accent'),
        opacity: 1,
        'z-index': 10,
      },
    },
    {
      selector: 'node.path',
      style: { 'overlay-color': css('--accent'), 'overlay-opacity': 0.18, 'overlay-padding': 4 },
    },
  ];
}

export function GraphCanvas({ model, focus, selected, path, onTap, onDoubleTap, label }: GraphCanvasProps) {
  const host = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const handlers = useRef({ onTap, onDoubleTap });
  handlers.current = { onTap, onDoubleTap };
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [timings, setTimings] = useState<Record<string, number> | null>(null);

  useEffect(() => {
    let cancelled = false;
    const t0 = performance.now();
    setState('loading');
    (async () => {
      const { default: cytoscape } = await loadCytoscape();
      if (cancelled || !host.current) return;
      const t1 = performance.now();
      const large = model.nodes.length > 400;
      const index = new Map(model.nodes.map((n, i) => [n.id, i]));
      const widths = labelWidths(model.nodes.map((n) => clip(n.label)));
      const layout = layeredLayout(
        { widths, edges: model.edges.map((e) => [index.get(e.source)!, index.get(e.target)!]) },
        { layerGap: 48, nodeGap: 12 },
      );
      const t2 = performance.now();
      const elements: ElementDefinition[] = model.nodes.map((n, i) => ({
        group: 'nodes',
        data: { id: n.id, kind: n.kind, state: n.state ?? 'NONE', text: clip(n.label), w: widths[i] },
        position: { x: layout.x[i], y: layout.y[i] },
        classes: n.id === focus ? 'focus' : undefined,
      }));
      for (const e of model.edges)
        elements.push({
          group: 'edges',
          data: {
            id: e.id,
            source: e.source,
            target: e.target,
            staleness: e.staleness,
            lastRunState: e.lastRunState ?? 'NONE',
          },
        });
      const cy = cytoscape({
        container: host.current,
        elements,
        layout: { name: 'preset', fit: true, padding: 30 },
        style: stylesheet(large),
        minZoom: 0.02,
        maxZoom: 3,
        wheelSensitivity: 0.3,
        boxSelectionEnabled: false,
        selectionType: 'single',
        autoungrabify: large,
        // Big graphs: draw a cached bitmap while panning/zooming instead of every edge.
        textureOnViewport: large,
        hideEdgesOnViewport: large,
        pixelRatio: large ? 1 : 'auto',
        motionBlur: false,
      });
      cyRef.current = cy;
      const t3 = performance.now();
      // Double taps are told apart here: Cytoscape's dbltap also fires for two quick taps on two
      // different nodes (select one, shift-click another), which must not re-centre.
      let lastTap = { id: '', at: 0 };
      cy.on('tap', (evt) => {
        const target = evt.target;
        const additive = Boolean((evt.originalEvent as MouseEvent | undefined)?.shiftKey);
        if (target === cy) {
          lastTap = { id: '', at: 0 };
          handlers.current.onTap(null, false);
        } else if (target.isNode()) {
          const id = target.id();
          const now = performance.now();
          if (!additive && lastTap.id === id && now - lastTap.at < 400 && handlers.current.onDoubleTap) {
            lastTap = { id: '', at: 0 };
            handlers.current.onDoubleTap(id);
            return;
          }
          lastTap = { id, at: now };
          handlers.current.onTap(id, additive);
        }
      });
      if (focus && cy.getElementById(focus).nonempty() && model.nodes.length > 60) {
        // Big graphs open around the node that was asked for, at a readable zoom.
        cy.zoom(Math.max(cy.zoom(), 0.6));
        cy.center(cy.getElementById(focus));
      }
      window.lineageGraph = {
        cy,
        model,
        clientPoint(id) {
          const el = cy.getElementById(id);
          if (el.empty() || !host.current) return null;
          const rect = host.current.getBoundingClientRect();
          const p = el.renderedPosition();
          return { x: rect.left + p.x, y: rect.top + p.y };
        },
      };
      cy.one('render', () => {
        requestAnimationFrame(() => {
          if (cancelled) return;
          const t4 = performance.now();
          // Where the time went (shown on the element for the UI bench).
          setTimings({
            totalMs: Math.round(t4 - t0),
            loadMs: Math.round(t1 - t0),
            layoutMs: Math.round(t2 - t1),
            initMs: Math.round(t3 - t2),
            firstFrameMs: Math.round(t4 - t3),
          });
          setState('ready');
          performance.mark('lineage-graph-ready');
        });
      });
    })().catch((err) => {
      console.error(err);
      if (!cancelled) setState('error');
    });
    return () => {
      cancelled = true;
      cyRef.current?.destroy();
      cyRef.current = null;
      window.lineageGraph = undefined;
    };
  }, [model]);

  // Selection, path and focus classes follow the props without rebuilding the graph.
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || state !== 'ready') return;
    cy.batch(() => {
      cy.elements().removeClass('faded path selected');
      cy.nodes().removeClass('focus');
      if (focus) cy.getElementById(focus).addClass('focus');
      cy.nodes().unselect();
      if (selected) cy.getElementById(selected).addClass('selected');
      if (path) {
        const on = new Set([...path.nodes, ...path.edges]);
        cy.elements().forEach((el) => {
          el.addClass(on.has(el.id()) ? 'path' : 'faded');
        });
      }
    });
  }, [state, selected, path, focus, model]);

  // Colours follow the system's light/dark switch.
  useEffect(() => {
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const update = () => cyRef.current?.style(stylesheet(model.nodes.length > 400));
    mq.addEventListener('change', update);
    return () => mq.removeEventListener('change', update);
  }, [model]);

  const onKey = (e: KeyboardEvent) => {
    const cy = cyRef.current;
    if (!cy) return;
    const step = 60;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [step, 0],
      ArrowRight: [-step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    if (moves[e.key]) cy.panBy({ x: moves[e.key][0], y: moves[e.key][1] });
    else if (e.key === '+' || e.key === '=')
      cy.zoom({ level: cy.zoom() * 1.25, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    else if (e.key === '-')
      cy.zoom({ level: cy.zoom() / 1.25, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    else if (e.key === '0') cy.fit(undefined, 30);
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
        <button
          type="button"
          onClick={() =>
            cyRef.current?.zoom({
              level: cyRef.current.zoom() * 1.25,
              renderedPosition: { x: cyRef.current.width() / 2, y: cyRef.current.height() / 2 },
            })
          }
          aria-label="Zoom in"
        >
          +
        </button>
        <button
          type="button"
          onClick={() =>
            cyRef.current?.zoom({
              level: cyRef.current.zoom() / 1.25,
              renderedPosition: { x: cyRef.current.width() / 2, y: cyRef.current.height() / 2 },
            })
          }
          aria-label="Zoom out"
        >
          −
        </button>
        <button
          type="button"
          onClick={() => cyRef.current?.fit(undefined, 30)}
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
