/**
 * A self-signed certificate for localhost, made now with openssl (nothing secret kept in the
 * repository), for the TLS proxies of the Bolt socket test and bench.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bolt-tls-'));
  try {
    const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem'];
    const r = spawnSync('openssl', [...args, '-days', '1', '-subj', '/CN=localhost'], { cwd: dir, encoding: 'utf8' });
    if (r.error || r.status !== 0)
      throw new Error(`openssl could not make a certificate: ${r.error?.message ?? r.stderr}`);
    return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
