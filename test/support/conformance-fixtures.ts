/**
 * The OpenLineage conformance fixtures (test/fixtures/openlineage/, described in its README): spec
 * events written from the spec's schemas, one file per facet or event shape. A file holds one event
 * or an array of events to post in order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openlineage');

export type Event = Record<string, any>;

export interface Fixture {
  /** Path under the fixtures folder, e.g. `dataset/schema.json`. */
  name: string;
  events: Event[];
}

/** Every fixture, sorted by name. */
export function loadFixtures(): Fixture[] {
  return (readdirSync(FIXTURES_DIR, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.split(path.sep).join('/'))
    .sort()
    .map((name) => {
      const data = JSON.parse(readFileSync(path.join(FIXTURES_DIR, name), 'utf8')) as Event | Event[];
      return { name, events: Array.isArray(data) ? data : [data] };
    });
}

/** One fixture by name (throws when missing, so a renamed file fails loudly). */
export function fixture(name: string): Fixture {
  const found = loadFixtures().find((f) => f.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found;
}

export type FacetSlot = 'run' | 'job' | 'dataset' | 'input' | 'output';

export interface CoreFacet {
  /** The facet's key in its slot, as the spec names it. */
  key: string;
  slot: FacetSlot;
  /** The facet's `_schemaURL` at its current spec version. */
  schemaURL: string;
  /** The fixture that sends it (the README's table lists the same). */
  fixture: string;
}

const spec = (version: string, file: string, def = file) =>
  `https://openlineage.io/spec/facets/${version}/${file}.json#/$defs/${def}`;

/**
 * The core facets of the OpenLineage spec (spec/facets/*.json) at their versions as of the Python
 * client 1.54.0, each with the fixture that covers it. conformance.test.ts checks every entry
 * against its fixture, and that no facet fixture is left out of this list.
 */
export const CORE_FACETS: CoreFacet[] = [
  { key: 'catalog', slot: 'dataset', schemaURL: spec('1-1-0', 'CatalogDatasetFacet'), fixture: 'dataset/catalog.json' },
  {
    key: 'columnLineage',
    slot: 'dataset',
    schemaURL: spec('1-0-1', 'ColumnLineageDatasetFacet'),
    fixture: 'dataset/columnLineage-1-0-1.json',
  },
  {
    key: 'columnLineage',
    slot: 'dataset',
    schemaURL: spec('1-2-0', 'ColumnLineageDatasetFacet'),
    fixture: 'dataset/columnLineage-1-2-0.json',
  },
  {
    key: 'dataQualityMetrics',
    slot: 'dataset',
    schemaURL: spec('1-0-1', 'DataQualityMetricsDatasetFacet'),
    fixture: 'dataset/dataQualityMetrics.json',
  },
  {
    key: 'dataSource',
    slot: 'dataset',
    schemaURL: spec('1-0-1', 'DatasourceDatasetFacet'),
    fixture: 'dataset/dataSource.json',
  },
  {
    key: 'datasetType',
    slot: 'dataset',
    schemaURL: spec('1-0-1', 'DatasetTypeDatasetFacet'),
    fixture: 'dataset/datasetType.json',
  },
  {
    key: 'documentation',
    slot: 'dataset',
    schemaURL: spec('1-1-0', 'DocumentationDatasetFacet'),
    fixture: 'dataset/documentation.json',
  },
  {
    key: 'hierarchy',
    slot: 'dataset',
    schemaURL: spec('1-0-0', 'HierarchyDatasetFacet'),
    fixture: 'dataset/hierarchy.json',
  },
  {
    key: 'lifecycleStateChange',
    slot: 'dataset',
    schemaURL: spec('1-0-1', 'LifecycleStateChangeDatasetFacet'),
    fixture: 'dataset/lifecycleStateChange.json',
  },
  {
    key: 'lineage',
    slot: 'dataset',
    schemaURL: spec('1-0-0', 'LineageFacet', 'LineageDatasetFacet'),
    fixture: 'dataset/lineage.json',
  },
  {
    key: 'ownership',
    slot: 'dataset',
    schemaURL: spec('1-0-1', 'OwnershipDatasetFacet'),
    fixture: 'dataset/ownership.json',
  },
  { key: 'schema', slot: 'dataset', schemaURL: spec('1-2-0', 'SchemaDatasetFacet'), fixture: 'dataset/schema.json' },
  { key: 'storage', slot: 'dataset', schemaURL: spec('1-0-1', 'StorageDatasetFacet'), fixture: 'dataset/storage.json' },
  {
    key: 'symlinks',
    slot: 'dataset',
    schemaURL: spec('1-0-1', 'SymlinksDatasetFacet'),
    fixture: 'dataset/symlinks.json',
  },
  { key: 'tags', slot: 'dataset', schemaURL: spec('1-0-0', 'TagsDatasetFacet'), fixture: 'dataset/tags.json' },
  {
    key: 'version',
    slot: 'dataset',
    schemaURL: spec('1-0-1', 'DatasetVersionDatasetFacet'),
    fixture: 'dataset/version.json',
  },
  {
    key: 'dataQualityAssertions',
    slot: 'input',
    schemaURL: spec('1-1-0', 'DataQualityAssertionsDatasetFacet'),
    fixture: 'input/dataQualityAssertions.json',
  },
  {
    key: 'dataQualityMetrics',
    slot: 'input',
    schemaURL: spec('1-0-3', 'DataQualityMetricsInputDatasetFacet'),
    fixture: 'input/dataQualityMetrics.json',
  },
  {
    key: 'icebergScanReport',
    slot: 'input',
    schemaURL: spec('1-0-1', 'IcebergScanReportInputDatasetFacet'),
    fixture: 'input/icebergScanReport.json',
  },
  {
    key: 'inputStatistics',
    slot: 'input',
    schemaURL: spec('1-0-0', 'InputStatisticsInputDatasetFacet'),
    fixture: 'input/inputStatistics.json',
  },
  {
    key: 'subset',
    slot: 'input',
    schemaURL: spec('1-0-0', 'BaseSubsetDatasetFacet', 'InputSubsetInputDatasetFacet'),
    fixture: 'input/subset.json',
  },
  {
    key: 'icebergCommitReport',
    slot: 'output',
    schemaURL: spec('1-0-2', 'IcebergCommitReportOutputDatasetFacet'),
    fixture: 'output/icebergCommitReport.json',
  },
  {
    key: 'outputStatistics',
    slot: 'output',
    schemaURL: spec('1-0-2', 'OutputStatisticsOutputDatasetFacet'),
    fixture: 'output/outputStatistics.json',
  },
  {
    key: 'subset',
    slot: 'output',
    schemaURL: spec('1-0-0', 'BaseSubsetDatasetFacet', 'OutputSubsetOutputDatasetFacet'),
    fixture: 'output/subset.json',
  },
  {
    key: 'documentation',
    slot: 'job',
    schemaURL: spec('1-1-0', 'DocumentationJobFacet'),
    fixture: 'job/documentation.json',
  },
  { key: 'jobType', slot: 'job', schemaURL: spec('2-0-4', 'JobTypeJobFacet'), fixture: 'job/jobType-batch.json' },
  { key: 'jobType', slot: 'job', schemaURL: spec('2-0-4', 'JobTypeJobFacet'), fixture: 'job/jobType-streaming.json' },
  {
    key: 'lineage',
    slot: 'job',
    schemaURL: spec('1-0-0', 'LineageFacet', 'LineageJobFacet'),
    fixture: 'job/lineage.json',
  },
  { key: 'ownership', slot: 'job', schemaURL: spec('1-0-1', 'OwnershipJobFacet'), fixture: 'job/ownership.json' },
  { key: 'sourceCode', slot: 'job', schemaURL: spec('1-0-1', 'SourceCodeJobFacet'), fixture: 'job/sourceCode.json' },
  {
    key: 'sourceCodeLocation',
    slot: 'job',
    schemaURL: spec('1-1-0', 'SourceCodeLocationJobFacet'),
    fixture: 'job/sourceCodeLocation.json',
  },
  { key: 'sql', slot: 'job', schemaURL: spec('1-1-0', 'SQLJobFacet'), fixture: 'job/sql.json' },
  { key: 'tags', slot: 'job', schemaURL: spec('1-0-0', 'TagsJobFacet'), fixture: 'job/tags.json' },
  {
    key: 'environmentVariables',
    slot: 'run',
    schemaURL: spec('1-0-0', 'EnvironmentVariablesRunFacet'),
    fixture: 'run/environmentVariables.json',
  },
  {
    key: 'errorMessage',
    slot: 'run',
    schemaURL: spec('1-0-1', 'ErrorMessageRunFacet'),
    fixture: 'run/errorMessage.json',
  },
  {
    key: 'executionParameters',
    slot: 'run',
    schemaURL: spec('1-0-0', 'ExecutionParametersRunFacet'),
    fixture: 'run/executionParameters.json',
  },
  {
    key: 'externalQuery',
    slot: 'run',
    schemaURL: spec('1-0-2', 'ExternalQueryRunFacet'),
    fixture: 'run/externalQuery.json',
  },
  {
    key: 'extractionError',
    slot: 'run',
    schemaURL: spec('1-1-2', 'ExtractionErrorRunFacet'),
    fixture: 'run/extractionError.json',
  },
  {
    key: 'jobDependencies',
    slot: 'run',
    schemaURL: spec('1-0-1', 'JobDependenciesRunFacet'),
    fixture: 'run/jobDependencies.json',
  },
  { key: 'nominalTime', slot: 'run', schemaURL: spec('1-0-1', 'NominalTimeRunFacet'), fixture: 'run/nominalTime.json' },
  { key: 'parent', slot: 'run', schemaURL: spec('1-2-0', 'ParentRunFacet'), fixture: 'run/parent.json' },
  { key: 'parent', slot: 'run', schemaURL: spec('1-0-1', 'ParentRunFacet'), fixture: 'run/parent-1-0-1.json' },
  {
    key: 'processing_engine',
    slot: 'run',
    schemaURL: spec('1-1-1', 'ProcessingEngineRunFacet'),
    fixture: 'run/processing_engine.json',
  },
  { key: 'tags', slot: 'run', schemaURL: spec('1-0-0', 'TagsRunFacet'), fixture: 'run/tags.json' },
  { key: 'test', slot: 'run', schemaURL: spec('1-0-1', 'TestRunFacet'), fixture: 'run/test.json' },
];
