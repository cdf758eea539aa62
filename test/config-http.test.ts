/** AUTH_MODE, API keys, LOG_FORMAT, CORS_ORIGINS, TRUST_PROXY: read and checked at start-up. */
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ConfigError, loadConfig } from '../src/config.js';
import { generateKey, keyEntry } from '../src/auth/keys.js';
import { createLogger } from '../src/logger.js';
import { warnAboutExposure } from '../src/server.js';

const errorOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('config: auth and HTTP', () => {
  const line = keyEntry('reader', generateKey(), ['read'], null);

  it('defaults: auth off, no CORS, no proxy trusted, JSON logs off a terminal', () => {
    const c = loadConfig({});
    expect(c.auth).to.deep.include({ mode: 'off', keys: [], metricsPublic: false });
    expect(c.corsOrigins).to.deep.equal([]);
    expect(c.trustProxy).to.equal(false);
    if (!process.stdout.isTTY) expect(c.logFormat).to.equal('json');
  });

  it('reads keys from API_KEYS_FILE or API_KEYS', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'keys-')), 'keys.jsonl');
    fs.writeFileSync(file, `# readers\n${line}\n`);
    const fromFile = loadConfig({ AUTH_MODE: 'apikey', API_KEYS_FILE: file, METRICS_PUBLIC: 'true' });
    expect(fromFile.auth.mode).to.equal('apikey');
    expect(fromFile.auth.keys.map((k) => k.id)).to.deep.equal(['reader']);
    expect(fromFile.auth.metricsPublic).to.equal(true);
    expect(loadConfig({ AUTH_MODE: 'APIKEY', API_KEYS: line }).auth.keys).to.have.length(1);
  });

  it('refuses what would lock everyone out or is ambiguous, naming the variable', () => {
    expect(errorOf({ AUTH_MODE: 'basic' })).to.match(/AUTH_MODE must be off or apikey/);
    expect(errorOf({ AUTH_MODE: 'apikey' })).to.match(/AUTH_MODE is apikey but no key is configured/);
    expect(errorOf({ API_KEYS_FILE: '/nonexistent/keys' })).to.match(/API_KEYS_FILE cannot be read/);
    expect(errorOf({ API_KEYS: '{"id": "x", "sha256": "00", "scopes": ["read"]}' })).to.match(
      /API_KEYS is invalid: API_KEYS line 1 \(x\): "sha256"/,
    );
    expect(errorOf({ API_KEYS: line, API_KEYS_FILE: '/x' })).to.match(/both set/);
    expect(errorOf({ LOG_FORMAT: 'xml' })).to.match(/LOG_FORMAT must be json or pretty/);
    expect(errorOf({ CORS_ORIGINS: 'ui.example.com' })).to.match(/CORS_ORIGINS must list origins/);
    expect(errorOf({ TRUST_PROXY: 'maybe' })).to.match(/TRUST_PROXY must be true or false/);
  });

  it('CORS_ORIGINS and TRUST_PROXY values', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:5173/' }).corsOrigins).to.deep.equal([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).to.deep.equal(['*']);
    // Browsers send the scheme and host in lower case: an origin typed otherwise still matches.
    const typed = loadConfig({ CORS_ORIGINS: 'HTTPS://UI.Example.com' });
    expect(typed.corsOrigins).to.deep.equal(['https://ui.example.com']);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).to.equal(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).to.equal(2);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).to.equal(false);
  });

  it('warns at start-up when auth is off on a non-loopback address, never printing keys', () => {
    const lines: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk, _e, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = createLogger('info', 'json', sink);
    warnAboutExposure(loadConfig({}), logger);
    expect(lines.map((l) => l.msg).join('\n')).to.match(/AUTH_MODE=off on a non-loopback address/);
    lines.length = 0;
    warnAboutExposure(loadConfig({ HOST: '127.0.0.1' }), logger);
    expect(lines).to.deep.equal([]);
    const key = generateKey();
    warnAboutExposure(loadConfig({ AUTH_MODE: 'apikey', API_KEYS: keyEntry('k', key, ['admin'], null) }), logger);
    expect(lines.map((l) => l.msg)).to.deep.equal(['API keys required']);
    expect(JSON.stringify(lines)).not.to.include(key);
  });
});
