import { expect } from 'chai';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { findKey, generateKey, grants, KEY_PREFIX, keyEntry, mayWrite, parseKeys } from '../../src/auth/keys.js';
import { projectRoot } from '../../src/paths.js';
import { runToEnd } from '../support/process.js';

describe('API key matching', () => {
  const secrets = [generateKey(), generateKey(), generateKey()];
  const keys = parseKeys(secrets.map((s, i) => keyEntry(`k${i}`, s, ['read'], null)).join('\n'), 'test');

  it('finds the key whose hash matches, and nothing for another text', () => {
    expect(findKey(secrets[1], keys)?.id).to.equal('k1');
    expect(findKey(`${secrets[1]} `, keys)).to.equal(null);
    expect(findKey('', keys)).to.equal(null);
  });

  it('compares in constant time: equal-length digests, every key, whatever matches', () => {
    for (const presented of [secrets[0], secrets[2], 'short', 'x'.repeat(500)]) {
      const calls: [number, number][] = [];
      const equal = (a: Buffer, b: Buffer) => {
        calls.push([a.length, b.length]);
        return crypto.timingSafeEqual(a, b);
      };
      findKey(presented, keys, equal);
      // The presented key is hashed first (32 bytes, whatever its length) and compared with all keys,
      // even after a match, so neither the length nor the position of a match shows in the time taken.
      expect(calls).to.deep.equal([
        [32, 32],
        [32, 32],
        [32, 32],
      ]);
    }
  });

  it('makes keys with a recognisable prefix and 256 random bits', () => {
    const key = generateKey();
    expect(key.startsWith(KEY_PREFIX)).to.equal(true);
    expect(Buffer.from(key.slice(KEY_PREFIX.length), 'base64url')).to.have.length(32);
    expect(generateKey()).not.to.equal(key);
  });

  it('scopes: admin includes read and write; write does not include read', () => {
    expect(grants(new Set(['admin']), 'read')).to.equal(true);
    expect(grants(new Set(['admin']), 'write')).to.equal(true);
    expect(grants(new Set(['write']), 'read')).to.equal(false);
    expect(grants(new Set(['read']), 'admin')).to.equal(false);
    expect(grants(new Set(['read']), 'public')).to.equal(true);
  });

  it('namespace patterns: exact names and * wildcards, nothing else special', () => {
    const key = { namespaces: ['airflow', 'postgres://*:5432', 'a.b'] };
    expect(mayWrite(key, 'airflow')).to.equal(true);
    expect(mayWrite(key, 'airflow2')).to.equal(false);
    expect(mayWrite(key, 'postgres://db:5432')).to.equal(true);
    expect(mayWrite(key, 'postgres://db:5433')).to.equal(false);
    expect(mayWrite(key, 'aXb')).to.equal(false);
    expect(mayWrite({ namespaces: null }, 'anything')).to.equal(true);
  });
});

describe('npm run apikey', () => {
  it('create prints a key and a keys-file line that recognises it', function () {
    this.timeout(60_000);
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/apikey.ts',
        'create',
        '--scopes',
        'write',
        '--namespace',
        'airflow',
        '--id',
        'producer',
      ],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    const key = /\n {2}(lgs_\S+)\n/.exec(out)![1];
    const line = /\n {2}(\{.*\})\n/.exec(out)![1];
    const [parsed] = parseKeys(line, 'output');
    expect(parsed).to.deep.include({ id: 'producer', namespaces: ['airflow'] });
    expect([...parsed.scopes]).to.deep.equal(['write']);
    expect(findKey(key, [parsed])?.id).to.equal('producer');
    expect(line).not.to.include(key);
  });

  it('refuses (exit 2) a missing value, an unknown option, an empty --id or --namespace', async function () {
    this.timeout(60_000);
    const run = (...args: string[]) =>
      runToEnd(process.execPath, ['--import', 'tsx', 'scripts/apikey.ts', 'create', '--scopes', 'write', ...args], {
        cwd: projectRoot,
      });
    // The four runs at once, each checked on its own answer.
    const cases = [['--namespace'], ['--namespaces', 'airflow'], ['--namespace='], ['--id=']];
    const answers = await Promise.all(cases.map((args) => run(...args)));
    for (const [i, args] of cases.entries()) {
      const r = answers[i];
      expect(r.status, `${args}: ${r.stderr}`).to.equal(2);
      expect(r.stderr, String(args)).not.to.match(/\n\s+at /);
      expect(r.stdout, 'no key printed').not.to.include('lgs_');
    }
    expect(answers[0].stderr, 'the run with --namespace').to.match(/--namespace.*missing[\s\S]*usage:/);
  });
});
