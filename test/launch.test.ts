/**
 * The service's Node flags live in its launch command, since V8 sizes the young generation before any
 * code runs (docs/operations.md#memory): `npm start`, the Docker image and the benches must agree.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { projectRoot } from '../src/paths.js';
import { startScriptNodeFlags } from '../bench/support.js';

describe('launch flags', () => {
  it('npm start sizes the young generation (32 MB semi-spaces)', () => {
    expect(startScriptNodeFlags(projectRoot)).to.deep.equal(['--max-semi-space-size=32']);
  });

  it('the Docker image starts the service with the same Node flags as npm start', () => {
    const dockerfile = fs.readFileSync(path.join(projectRoot, 'Dockerfile'), 'utf8');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    expect(cmd).to.deep.equal(['node', ...startScriptNodeFlags(projectRoot), 'dist/src/server.js']);
  });

  it('the flag takes effect when given on the command line (V8 ignores it once the heap exists)', () => {
    const newSpaceMiB = (args: string[]) => {
      const r = spawnSync(
        process.execPath,
        [
          ...args,
          '-e',
          // Allocation with survivors grows the new space to its maximum.
          "let keep = []; for (let i = 0; i < 2e6; i++) { keep.push({ i, s: 'x' + i }); " +
            'if (keep.length > 50000) keep = []; }' +
            "const s = require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');" +
            'console.log(s.space_size / 1048576)',
        ],
        { encoding: 'utf8' },
      );
      return Number(r.stdout.trim());
    };
    // The new space holds two semi-spaces: 2 x 32 MB with the flag, 2 x 16 MB (Node 20's default) without.
    expect(newSpaceMiB(startScriptNodeFlags(projectRoot))).to.equal(64);
    expect(newSpaceMiB([])).to.equal(32);
  });
});
