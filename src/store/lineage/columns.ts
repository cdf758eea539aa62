/**
 * Column-level lineage: a FEEDS walk finds every column reachable over any mapping ever declared (a
 * superset of the answer at any time), the declarations in force then say which of those edges count
 * (cypher/lineage/column-declarations.cypher), and the pure walk in src/domain/lineage/column-walk.ts
 * builds the answer. Three queries whatever the graph size (four with a #version start), and one more when
 * declarations in force name inputs: it renames those named by a symlink alias to their primary dataset.
 */
import neo4j from 'neo4j-driver';
import { compactCypher, withMaxRels } from '../cypher.js';
import { int } from '../db.js';
import type { LineageGraph } from '../../api/types.js';
import { datasetNodeId, fieldNodeId, type EntityRef, type ParsedNodeId } from '../../domain/node-id.js';
import {
  columnLineage as columnLineageEntries,
  mergeInputs,
  schemaColumns,
  schemaFields,
  topLevelColumns,
} from '../../domain/openlineage/normalize.js';
import type { ColumnLineageInput } from '../../domain/openlineage/types.js';
import { columnAnswer, type ColumnCandidate, type ColumnInput } from '../../domain/lineage/column-walk.js';
import type { LineageReader, Resolved } from './resolver.js';
import { END_OF_TIME } from './view.js';

type Props = Record<string, unknown>;

export interface ColumnDeclaration {
  /** Output column → its declared inputs; null when the dataset had declared nothing by then. */
  fields: Map<string, ColumnLineageInput[]> | null;
  /** True when every FEEDS edge into the dataset counts (it never declared column lineage on a version). */
  open: boolean;
  versionAt: string | null;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function shapeTransformations(list: Props[]): ColumnInput['transformations'] {
  return list.map((t) => ({
    type: t.type ?? null,
    subtype: t.subtype ?? null,
    description: t.description ?? null,
    masking: t.masking ?? null,
  }));
}

/**
 * A FEEDS edge record into `field` as an input of the answer, or null when the declaration in force
 * does not list it; transformations come from that declaration.
 */
export function columnInput(
  edge: Props,
  declaration: ColumnDeclaration | undefined,
  field: string,
): ColumnInput | null {
  let transformations: ColumnInput['transformations'];
  if (!declaration || declaration.open) {
    transformations = shapeTransformations((parseJson(edge.transformations) as Props[] | null) ?? []);
  } else {
    const declared = declaration.fields
      ?.get(field)
      ?.find((i) => i.namespace === edge.namespace && i.name === edge.dataset && i.field === edge.field);
    if (!declared) return null;
    transformations = shapeTransformations(declared.transformations as Props[]);
  }
  return {
    namespace: edge.namespace as string,
    dataset: edge.dataset as string,
    field: edge.field as string,
    jobNamespace: (edge.jobNamespace as string | null) ?? null,
    jobName: (edge.jobName as string | null) ?? null,
    transformationDescription: (transformations[0]?.description as string | null | undefined) ?? null,
    transformationType: (transformations[0]?.type as string | null | undefined) ?? null,
    transformations,
  };
}

/** Where a column-lineage answer starts, and as of when it answers. */
interface Start {
  startIds: string[];
  /** The declarations in force at this time (null: now). */
  at: string | null;
  /** A `#version` start: the dataset it pins, and the columns of that version's schema. */
  pinned: { namespace: string; dataset: string; version: string; fields: Set<string> | null } | null;
}

export class ColumnLineage {
  constructor(
    private readonly reader: LineageReader,
    private readonly maxNodes: number,
  ) {}

  /**
   * Column-level lineage from a dataset (all its columns), a column, or a job (the columns of the
   * datasets it writes); null when the id names nothing (or an unknown version of it).
   */
  async lineage(
    id: ParsedNodeId,
    depth: number,
    withDownstream: boolean,
    asOf: Date | null = null,
  ): Promise<LineageGraph | null> {
    const start = await this.start(id, asOf);
    if (!start) return null;
    if (!start.startIds.length) return { graph: [], truncated: false };
    // A quantifier cannot be {0, 0}: depth 0 walks one hop and keeps the start columns only.
    const text = withMaxRels('lineage/column-graph', Math.max(depth, 1));
    const all = await this.reader.run('lineage/column-graph', text, {
      startIds: start.startIds,
      withDownstream,
      maxNodes: int(this.maxNodes + 1),
    });
    const truncated = all.length > this.maxNodes;
    const recs = all.slice(0, this.maxNodes).filter((r) => !r.get('deleted'));
    const declarations = await this.declarations(
      recs.map((r) => ({ namespace: r.get('namespace') as string, name: r.get('dataset') as string })),
      start.at,
    );
    const startSet = new Set(start.startIds);
    const candidates: ColumnCandidate[] = [];
    const startNodes: string[] = [];
    for (const rec of recs) {
      const namespace = rec.get('namespace') as string;
      const dataset = rec.get('dataset') as string;
      const field = rec.get('field') as string;
      const nodeId = fieldNodeId(namespace, dataset, field);
      const declaration = declarations.get(datasetNodeId(namespace, dataset));
      const pinned =
        start.pinned && start.pinned.namespace === namespace && start.pinned.dataset === dataset ? start.pinned : null;
      candidates.push({
        nodeId,
        namespace,
        dataset,
        field,
        fieldType: (rec.get('fieldType') as string | null) ?? null,
        datasetVersion: pinned
          ? pinned.version
          : start.at !== null
            ? (declaration?.versionAt ?? null)
            : ((rec.get('datasetVersion') as string | null) ?? null),
        inputs: (rec.get('inputs') as Props[])
          .map((i) => columnInput(i, declaration, field))
          .filter((i): i is ColumnInput => i !== null),
      });
      // A pinned dataset start keeps only the columns of that version's schema.
      if (startSet.has(rec.get('eid') as string) && !(pinned?.fields && !pinned.fields.has(field)))
        startNodes.push(nodeId);
    }
    return { graph: columnAnswer(candidates, startNodes, depth, withDownstream, id.version !== null), truncated };
  }

  /**
   * The start columns. A `#version` answer is the column lineage in force when that version was
   * created; an `asOf` answer (without #version) the column lineage in force at that time.
   */
  private async start(id: ParsedNodeId, asOf: Date | null): Promise<Start | null> {
    if (id.kind === 'datasetField') {
      const f = await this.reader.resolveField(id.candidates);
      if (!f) return null;
      if (!id.version) return { startIds: [f.eid], at: asOf?.toISOString() ?? null, pinned: null };
      const start = await this.columns(
        await this.reader.resolve('dataset', [{ namespace: f.namespace, name: f.dataset }]),
        'dataset',
        id.version,
      );
      if (!start?.fieldNames?.has(f.field)) return null;
      return {
        startIds: [f.eid],
        at: start.at,
        pinned: { namespace: f.namespace, dataset: f.dataset, version: id.version, fields: null },
      };
    }
    const entity = await this.reader.resolve(
      id.kind,
      id.candidates,
      asOf && !id.version ? neo4j.types.DateTime.fromStandardDate(asOf) : undefined,
    );
    if (!entity) return null;
    const start = await this.columns(entity, id.kind, id.version);
    if (!start) return null;
    const pinned =
      id.kind === 'dataset' && id.version
        ? { namespace: entity.namespace, dataset: entity.name, version: id.version, fields: start.fieldNames }
        : null;
    return { startIds: start.fieldIds, at: start.at ?? asOf?.toISOString() ?? null, pinned };
  }

  /** Per dataset (by dataset node id): the column-lineage declaration in force at `at` (null: now). */
  async declarations(refs: EntityRef[], at: string | null): Promise<Map<string, ColumnDeclaration>> {
    const unique = new Map(refs.map((r) => [datasetNodeId(r.namespace, r.name), r]));
    const out = new Map<string, ColumnDeclaration>();
    if (!unique.size) return out;
    const recs = await this.reader.run('lineage/column-declarations', compactCypher('lineage/column-declarations'), {
      datasets: [...unique.values()],
      at,
      endOfTime: END_OF_TIME,
    });
    for (const r of recs) {
      const json = r.get('declaration') as string | null;
      const facet = json === null ? null : (parseJson(json) as Props | null);
      // Dataset-wide inputs feed the columns of the declaring version's schema too, as at ingest.
      const columns = topLevelColumns(schemaFields(parseJson(r.get('declarationFields'))));
      const fields =
        facet === null ? null : new Map(columnLineageEntries(facet, columns).map((e) => [e.field, e.inputFields]));
      // No declaration anywhere (lineage known only from JobEvents): every FEEDS edge counts, now.
      out.set(datasetNodeId(r.get('namespace'), r.get('name')), {
        fields,
        open: at === null && !r.get('hasAny'),
        versionAt: r.get('versionAt') ?? null,
      });
    }
    await this.resolveAliases([...out.values()]);
    return out;
  }

  /**
   * Declared inputs named by a symlink alias, renamed to their primary dataset: ingest resolved the alias
   * when it wrote the FEEDS edge, so the edge starts at the primary's column (docs/lineage.md, Symlinks).
   */
  private async resolveAliases(declarations: ColumnDeclaration[]): Promise<void> {
    const names = new Map<string, EntityRef>();
    for (const d of declarations)
      for (const inputs of d.fields?.values() ?? [])
        for (const i of inputs) names.set(datasetNodeId(i.namespace, i.name), { namespace: i.namespace, name: i.name });
    if (!names.size) return;
    const recs = await this.reader.run('lineage/alias-primaries', compactCypher('lineage/alias-primaries'), {
      datasets: [...names.values()],
    });
    if (!recs.length) return;
    const primary = new Map(
      recs.map((r) => [
        datasetNodeId(r.get('namespace'), r.get('name')),
        { namespace: r.get('primaryNamespace') as string, name: r.get('primaryName') as string },
      ]),
    );
    for (const d of declarations) {
      if (!d.fields) continue;
      for (const [field, inputs] of d.fields) {
        if (!inputs.some((i) => primary.has(datasetNodeId(i.namespace, i.name)))) continue;
        d.fields.set(
          field,
          mergeInputs(inputs.map((i) => ({ ...i, ...primary.get(datasetNodeId(i.namespace, i.name)) }))),
        );
      }
    }
  }

  /** The columns of a dataset (or a job's outputs), at a version when given. */
  private async columns(
    entity: Resolved | null,
    kind: 'dataset' | 'job',
    version: string | null,
  ): Promise<{ fieldIds: string[]; fieldNames: Set<string> | null; at: string | null } | null> {
    if (!entity) return null;
    const recs = await this.reader.run('lineage/column-start', compactCypher('lineage/column-start'), {
      eid: entity.eid,
      kind,
      version,
    });
    if (!recs.length || !recs[0].get('found')) return null;
    const fieldsJson = recs[0].get('fieldsJson') as string | null;
    const fieldNames =
      fieldsJson === null ? null : new Set(schemaColumns(schemaFields(parseJson(fieldsJson))).map((f) => f.name));
    return {
      fieldIds: recs[0].get('fieldIds') as string[],
      fieldNames,
      at: (recs[0].get('at') as string | null) ?? null,
    };
  }
}
