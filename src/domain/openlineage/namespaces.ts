/**
 * Every namespace an event writes into when ingested: its job's and its parents' (the parent jobs are
 * created if unknown), its datasets' (inputs, outputs, or a DatasetEvent's dataset), the namespaces of
 * the other names its datasets declare (symlinks become alias datasets), and of the columns its column
 * lineage reads from. A key limited to some namespaces may send an event only if all of them are among
 * its namespaces (src/http/auth.ts). Pure.
 */
import type { NormalizedDataset, NormalizedEvent } from './types.js';

export function eventNamespaces(event: NormalizedEvent): Set<string> {
  const out = new Set<string>();
  if (event.job) out.add(event.job.namespace);
  const parent = event.run?.parent;
  if (parent) {
    out.add(parent.job.namespace);
    if (parent.root) out.add(parent.root.job.namespace);
  }
  const datasets: NormalizedDataset[] = [...event.inputs, ...event.outputs, ...(event.dataset ? [event.dataset] : [])];
  for (const d of datasets) {
    out.add(d.namespace);
    for (const link of d.symlinks) out.add(link.namespace);
    for (const entry of d.columnLineage) for (const input of entry.inputFields) out.add(input.namespace);
  }
  return out;
}
