import { expect } from 'chai';
import { ConfigError, loadConfig, parseSize } from '../src/config.js';

function errorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('config', () => {
  it('has production defaults: port 5000, 10 MB bodies, a local Neo4j', () => {
    const c = loadConfig({});
    expect(c.port).to.equal(5000);
    expect(c.bodyLimitBytes).to.equal(10 * 1024 * 1024);
    expect(c.neo4j.kind).to.equal('local');
    expect(c.neo4j.database).to.equal('neo4j');
  });

  it('uses an external Neo4j when NEO4J_URI is set, including neo4j:// routing URIs', () => {
    const c = loadConfig({
      NEO4J_URI: 'neo4j+s://abc.databases.neo4j.io',
      NEO4J_USER: 'u',
      NEO4J_PASSWORD: 'p',
      NEO4J_DATABASE: 'lineage',
    });
    expect(c.neo4j).to.deep.equal({
      kind: 'external',
      uri: 'neo4j+s://abc.databases.neo4j.io',
      user: 'u',
      password: 'p',
      database: 'lineage',
    });
  });

  it('names the variable when a value is bad', () => {
    expect(errorOf({ PORT: 'eighty' }).message).to.match(/PORT must be a whole number/);
    expect(errorOf({ PORT: '70000' }).message).to.match(/PORT must be between 0 and 65535/);
    expect(errorOf({ LOG_LEVEL: 'loud' }).variable).to.equal('LOG_LEVEL');
    expect(errorOf({ BODY_LIMIT: 'huge' }).variable).to.equal('BODY_LIMIT');
    // 0 (or any size no event fits in) would refuse every write with 413.
    expect(errorOf({ BODY_LIMIT: '0' }).message).to.match(/BODY_LIMIT must be at least 1kb/);
    expect(loadConfig({ BODY_LIMIT: '1kb' }).bodyLimitBytes).to.equal(1024);
    expect(errorOf({ NEO4J_URI: 'http://localhost:7474' }).variable).to.equal('NEO4J_URI');
    expect(errorOf({ NEO4J_LOCAL_VERSION: '2025.01.0' }).variable).to.equal('NEO4J_LOCAL_VERSION');
    expect(errorOf({ NEO4J_LOCAL_HEAP: 'lots' }).variable).to.equal('NEO4J_LOCAL_HEAP');
    expect(errorOf({ QUERY_TIMEOUT_MS: '5' }).variable).to.equal('QUERY_TIMEOUT_MS');
    expect(errorOf({ INGEST_WRITERS: '0' }).variable).to.equal('INGEST_WRITERS');
    expect(errorOf({ INGEST_MAX_BATCH: 'many' }).variable).to.equal('INGEST_MAX_BATCH');
    expect(errorOf({ INGEST_MAX_QUEUE: '0' }).variable).to.equal('INGEST_MAX_QUEUE');
    expect(errorOf({ INGEST_LINGER_MS: '-1' }).variable).to.equal('INGEST_LINGER_MS');
    expect(errorOf({ INGEST_MIN_BATCH: '0' }).variable).to.equal('INGEST_MIN_BATCH');
  });

  it(
    'caps request-body bytes in flight (BODY_BYTES_IN_FLIGHT): 12 MiB by default, 0 for no cap, never below ' +
      'BODY_LIMIT',
    () => {
      expect(loadConfig({}).bodyBytesInFlight).to.equal(12 * 1024 * 1024);
      expect(loadConfig({ BODY_BYTES_IN_FLIGHT: '0' }).bodyBytesInFlight).to.equal(0);
      expect(loadConfig({ BODY_BYTES_IN_FLIGHT: '1g' }).bodyBytesInFlight).to.equal(1024 ** 3);
      expect(loadConfig({ BODY_LIMIT: '1mb', BODY_BYTES_IN_FLIGHT: '1mb' }).bodyBytesInFlight).to.equal(1024 ** 2);
      const below = errorOf({ BODY_BYTES_IN_FLIGHT: '5mb' });
      expect(below.variable).to.equal('BODY_BYTES_IN_FLIGHT');
      expect(below.message).to.match(/at least BODY_LIMIT \(10485760 bytes\)/);
      expect(loadConfig({ BODY_LIMIT: '100mb' }).bodyBytesInFlight, 'unset, at least BODY_LIMIT').to.equal(
        100 * 1024 ** 2,
      );
      expect(loadConfig({ BODY_LIMIT: '100mb', BODY_BYTES_IN_FLIGHT: '0' }).bodyLimitBytes).to.equal(100 * 1024 ** 2);
      expect(errorOf({ BODY_BYTES_IN_FLIGHT: 'lots' }).message).to.match(/BODY_BYTES_IN_FLIGHT must be a size/);
    },
  );

  it('profiles ingestion only when INGEST_PROFILE asks: statements, or phases', () => {
    expect(loadConfig({}).ingestProfile).to.equal('off');
    expect(loadConfig({ INGEST_PROFILE: '1' }).ingestProfile).to.equal('statements');
    expect(loadConfig({ INGEST_PROFILE: 'phases' }).ingestProfile).to.equal('phases');
  });

  it('bounds the ingest queue at 10,000 waiting events by default, configurable', () => {
    expect(loadConfig({})).to.include({ ingestMaxQueue: 10_000 });
    expect(loadConfig({ INGEST_MAX_QUEUE: '500' })).to.include({ ingestMaxQueue: 500 });
  });

  it('group-commits ingestion with 2 writers of up to 32 events by default, both configurable', () => {
    expect(loadConfig({})).to.include({ ingestWriters: 2, ingestMaxBatch: 32, ingestLingerMs: 10, ingestMinBatch: 16 });
    expect(loadConfig({ INGEST_WRITERS: '4', INGEST_MAX_BATCH: '100', INGEST_LINGER_MS: '0' })).to.include({
      ingestWriters: 4,
      ingestMaxBatch: 100,
      ingestLingerMs: 0,
    });
  });

  it(
    'sheds load by time: events wait at most 1 s for a transaction, 4 queries run at once and the next wait at most ' +
      '2 s; requests are received within 30 s',
    () => {
      expect(loadConfig({})).to.include({
        ingestMaxWaitMs: 1000,
        queryMaxConcurrent: 4,
        queryMaxWaitMs: 2000,
        requestTimeoutMs: 30_000,
      });
      expect(
        loadConfig({
          INGEST_MAX_WAIT_MS: '2500',
          QUERY_MAX_CONCURRENT: '32',
          QUERY_MAX_WAIT_MS: '0',
          REQUEST_TIMEOUT_MS: '120000',
        }),
      ).to.include({
        ingestMaxWaitMs: 2500,
        queryMaxConcurrent: 32,
        queryMaxWaitMs: 0,
        requestTimeoutMs: 120_000,
      });
      expect(errorOf({ INGEST_MAX_WAIT_MS: '5' }).variable).to.equal('INGEST_MAX_WAIT_MS');
      expect(errorOf({ QUERY_MAX_CONCURRENT: '0' }).variable).to.equal('QUERY_MAX_CONCURRENT');
      expect(errorOf({ QUERY_MAX_WAIT_MS: 'soon' }).variable).to.equal('QUERY_MAX_WAIT_MS');
      expect(errorOf({ REQUEST_TIMEOUT_MS: '10' }).variable).to.equal('REQUEST_TIMEOUT_MS');
      expect(loadConfig({})).to.include({ queryMemorySoftLimitBytes: 128 * 1024 * 1024 });
      expect(loadConfig({ QUERY_MEMORY_SOFT_LIMIT: '0' })).to.include({ queryMemorySoftLimitBytes: 0 });
      expect(errorOf({ QUERY_MEMORY_SOFT_LIMIT: 'plenty' }).variable).to.equal('QUERY_MEMORY_SOFT_LIMIT');
    },
  );

  it('lets the V8 heap grow 50% past its live size between full collections by default (HEAP_GROWTH_PERCENT)', () => {
    expect(loadConfig({})).to.include({ heapGrowthPercent: 50 });
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' })).to.include({ heapGrowthPercent: 0 });
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '50' })).to.include({ heapGrowthPercent: 50 });
    expect(errorOf({ HEAP_GROWTH_PERCENT: 'low' }).variable).to.equal('HEAP_GROWTH_PERCENT');
    expect(errorOf({ HEAP_GROWTH_PERCENT: '1000' }).variable).to.equal('HEAP_GROWTH_PERCENT');
  });

  it('caps the facet property keys at 5,000 by default, configurable', () => {
    expect(loadConfig({})).to.include({ facetKeysMax: 5000 });
    expect(loadConfig({ FACET_KEYS_MAX: '20000' })).to.include({ facetKeysMax: 20_000 });
    expect(errorOf({ FACET_KEYS_MAX: '1' }).variable).to.equal('FACET_KEYS_MAX');
  });

  it('passes extra JVM flags to the local Neo4j, none by default', () => {
    const local = (env: Record<string, string>) => {
      const c = loadConfig(env).neo4j;
      if (c.kind !== 'local') throw new Error('expected a local Neo4j');
      return c;
    };
    expect(local({}).jvmArgs).to.deep.equal([]);
    expect(
      local({ NEO4J_LOCAL_JVM_ARGS: ' -Xlog:gc:file=gc.log   -XX:+UseStringDeduplication ' }).jvmArgs,
    ).to.deep.equal(['-Xlog:gc:file=gc.log', '-XX:+UseStringDeduplication']);
  });

  it('parses body sizes with units', () => {
    expect(parseSize('X', '512kb')).to.equal(512 * 1024);
    expect(parseSize('X', '1048576')).to.equal(1048576);
    expect(parseSize('X', '1.5MB')).to.equal(1.5 * 1024 * 1024);
  });
});
