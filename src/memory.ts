/**
 * The service's own memory settings (docs/operations.md#memory), applied by the process to itself at
 * start so that they hold however it is launched (`npm start`, `node dist/src/server.js`, the Docker
 * image, a bench).
 *
 * Node sizes V8's heap for the machine (4 GB of old space on a machine with 16 GB or more) and lets
 * the heap grow up to 4x what survived the last full collection before collecting again. The live
 * heap of this service stays small (about 20 MB idle, tens of MB under load: requests in flight, the
 * admitted queries' results), but with that much growth allowed the heap reached 160-220 MB under 256
 * producers or readers and resident memory 300-330 MiB. Capping the growth factor makes V8 collect
 * sooner and hand memory back, for more GC CPU (measured in docs/operations.md#memory: 50% is the
 * middle of RSS and CPU). It is a V8 flag that V8 reads at every full collection, so setting it here
 * (not on the command line) works: that was measured too (bench/results/overload-memory-probes.json).
 *
 * The young generation's size is the exception: V8 fixes it before any code runs, so it is a launch flag
 * (`--max-semi-space-size=32` in package.json's start script and the Dockerfile; test/launch.test.ts).
 */
import v8 from 'node:v8';

/** Default HEAP_GROWTH_PERCENT: after a full collection, the heap may grow 50% past what survived it. */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

export interface MemorySettings {
  /** 1 + this/100 is the factor by which the heap may grow between full collections; 0 leaves V8's own. */
  heapGrowthPercent: number;
}

let applied: MemorySettings | null = null;

/** Applies `settings` to this process's V8 (once per process; later calls with other values apply those). */
export function applyMemorySettings(settings: MemorySettings): void {
  if (settings.heapGrowthPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${settings.heapGrowthPercent}`);
  applied = { ...settings };
}

/** What applyMemorySettings applied (null: nothing, V8's defaults) and V8's heap limit: the start-up log, /metrics. */
export function memorySettingsInEffect(): { applied: MemorySettings | null; heapSizeLimitBytes: number } {
  return { applied, heapSizeLimitBytes: v8.getHeapStatistics().heap_size_limit };
}
