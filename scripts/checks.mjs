/**
 * npm test's pretest: every command of `npm run typecheck` and `npm run lint` (read from package.json,
 * so the lists cannot drift apart), run at once rather than one after the other. The two type checks
 * are single-threaded and take most of the time, so on two cores the checks take about as long as the
 * longest one. Each command's output is printed when it ends; the exit code is 1 if any failed.
 * Plain JavaScript, so that it starts without a compiler.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const commands = ['typecheck', 'lint'].flatMap((name) => scripts[name].split(' && ').map((c) => c.trim()));
const bin = path.join(root, 'node_modules', '.bin');

const t0 = performance.now();
const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const child = spawn(command, {
          cwd: root,
          shell: true,
          env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('error', (err) => (output += `${err.message}\n`));
        child.on('close', (code, signal) => {
          const ok = code === 0;
          const seconds = ((performance.now() - t0) / 1000).toFixed(1);
          process.stdout.write(
            `\n> ${command}  (${ok ? 'ok' : `failed: ${signal ?? `exit ${code}`}`}, ${seconds} s)\n`,
          );
          if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
          resolve(ok);
        });
      }),
  ),
);
const failed = commands.filter((_, i) => !results[i]);
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join('; ')}`);
  process.exit(1);
}
