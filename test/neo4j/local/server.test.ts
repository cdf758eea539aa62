import { expect } from 'chai';
import { checkPrerequisites, Neo4jRuntimeError } from '../../../src/neo4j/local/server.js';

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
