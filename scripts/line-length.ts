/**
 * npm run lint (second half): no line of TypeScript, JavaScript or Cypher over 120 characters. Biome
 * formats code to that width but leaves comments and string literals alone, and does not read Cypher;
 * this check covers them too. (Cypher rules that queries repeat from cypher/lineage/graph.cypher are
 * compared with their whitespace collapsed, so they wrap freely: test/store/impact-plans.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const MAX = 120;
const CHECKED = /\.(ts|tsx|js|cjs|mjs|cypher)$/;

const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\0')
  .filter((f) => CHECKED.test(f) && fs.existsSync(f));
const long: string[] = [];
for (const file of files) {
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if ([...line].length > MAX) long.push(`${file}:${i + 1}: ${[...line].length} characters`);
    });
}
if (long.length > 0) {
  console.error(`${long.length} line(s) longer than ${MAX} characters:\n${long.join('\n')}`);
  process.exit(1);
}
console.log(`${files.length} files, no line longer than ${MAX} characters`);
