/**
 * A lineage node's data without `include` is built straight from graph.cypher's lean projection
 * (mappers.ts, lineageNodeData), not through the full API object: both must give the same JSON, key
 * order included, for every kind of node the stream below holds, now and as of a time.
 */
import { expect } from 'chai';
import neo4j from 'neo4j-driver';
import { graphNodeProps, graphQuery, maxRelsFor, viewParams } from '../../../src/store/lineage/index.js';
import type { GraphRow } from '../../../src/store/catalogue.js';
import { lineageNodeData, toDataset, toJob } from '../../../src/store/mappers.js';
import { datasetAsOf, jobAsOf, nodeData } from '../../../src/domain/lineage/graph-nodes.js';
import { useTestApp } from '../../helper.js';
import { rows } from '../../support/graph.js';
import { facet, runEvent } from '../../support/events.js';
import { replayStream } from '../../support/replay-stream.js';

describe('lineage node data without include', () => {
  const t = useTestApp();

  it('is the JSON of the full node data picked down, for every node, now and as of a time', async function () {
    this.timeout(120_000);
    for (const e of replayStream()) expect((await t().post('/api/v1/lineage', e)).status).to.equal(201);
    // What the stream lacks: a code location, a job description and type, nested columns with tags, tags.
    const event = runEvent({
      job: 'lean.job',
      eventType: 'COMPLETE',
      inputs: [{ name: 'lean.in', fields: [['id', 'BIGINT']] }],
      outputs: [
        {
          name: 'lean.out',
          facets: {
            schema: facet({
              fields: [
                { name: 'id', type: 'BIGINT', description: 'key' },
                { name: 'addr', type: 'STRUCT', fields: [{ name: 'city', type: 'STRING' }] },
              ],
            }),
          },
        },
      ],
      jobFacets: {
        sourceCodeLocation: facet({ type: 'git', url: 'https://git.example.com/lean.py' }),
        documentation: facet({ description: 'a lean job' }),
        jobType: facet({ processingType: 'BATCH', integration: 'SPARK', jobType: 'JOB' }),
      },
    });
    expect((await t().post('/api/v1/lineage', event)).status).to.equal(201);
    const ns = encodeURIComponent('postgres://db.example.com:5432');
    for (const path of [
      `/api/v1/namespaces/airflow/jobs/lean.job/tags/critical`,
      `/api/v1/namespaces/${ns}/datasets/lean.out/tags/PII`,
      `/api/v1/namespaces/${ns}/datasets/lean.out/fields/addr.city/tags/SENSITIVE`,
    ])
      expect((await t().post(path, undefined)).status, path).to.be.oneOf([200, 201]);

    const [{ at }] = await rows(t().db, "RETURN toString(datetime('2024-03-02T12:00:00Z')) AS at");
    const starts = await rows(
      t().db,
      'MATCH (n) WHERE n:Job OR n:Dataset ' +
        'RETURN elementId(n) AS eid, n:Job AS isJob, n.namespace AS ns, n.name AS name',
    );
    let compared = 0;
    for (const asOf of [null, new Date(at as string)]) {
      const seen = new Set<string>();
      for (const { eid, isJob, ns, name } of starts) {
        // A walk in both directions reaches the start's whole component: one start per component.
        if (seen.has(`${isJob}:${ns}:${name}`)) continue;
        const res = await t().db.read({ op: 'test' }, (tx) =>
          tx.run(graphQuery('both', maxRelsFor('dataset', 20)), {
            startId: eid,
            ...viewParams({ asOf, window: null }),
            facets: false,
            runDetails: false,
            maxNodes: neo4j.int(1000),
            chunk: neo4j.int(500),
          }),
        );
        for (const row of res.records.flatMap((r) => r.get('nodes')) as GraphRow[]) {
          const isJob = row[0];
          let node = graphNodeProps(row);
          if (asOf) node = isJob ? jobAsOf(node, asOf.getTime()) : datasetAsOf(node, asOf.getTime());
          const key = `${isJob}:${node.namespace}:${node.name}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const full = nodeData(isJob ? toJob(node) : toDataset(node), isJob, new Set());
          expect(JSON.stringify(lineageNodeData(node, isJob)), key).to.equal(JSON.stringify(full));
          compared++;
        }
      }
    }
    expect(compared, 'nodes compared').to.be.greaterThan(30);
  });
});
