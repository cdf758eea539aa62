import { expect } from 'chai';
import {
  checkPrerequisites,
  classDataSharingArgs,
  COLLECTOR_JVM_FLAGS,
  Neo4jRuntimeError,
} from '../../../src/neo4j/local/server.js';

describe('local Neo4j runtime prerequisites', () => {
  it('names Java when it is missing', () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(() => checkPrerequisites(true)).to.throw(Neo4jRuntimeError, /Java 17.*openjdk-17/);
    } finally {
      process.env.PATH = path;
    }
  });

  it('passes on this machine (Java 17 and Maven present)', () => {
    expect(() => checkPrerequisites(true)).not.to.throw();
  });
});

describe('local Neo4j class-data archive', () => {
  const lib = '/opt/neo4j/5.26.30/lib';
  const file = (args?: string[]) => classDataSharingArgs(lib, '17.0.15', args).archive.split('/').pop();

  it('is named by Java version and collector: a JVM refuses an archive written under another collector', () => {
    expect(file()).to.equal('server-classes-java-17.0.15-parallelgc.jsa');
    // NEO4J_LOCAL_JVM_ARGS come after the service's collector flag: the last one named wins.
    expect(file([...COLLECTOR_JVM_FLAGS, '-XX:-UseParallelGC', '-XX:+UseG1GC'])).to.equal(
      'server-classes-java-17.0.15-g1gc.jsa',
    );
    expect(file([])).to.equal('server-classes-java-17.0.15-defaultgc.jsa');
  });
});
