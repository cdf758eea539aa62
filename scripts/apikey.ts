/**
 * npm run apikey -- create --scopes write --namespace airflow [--id airflow-prod] [--append keys.jsonl]
 *
 * Makes a new API key and prints it once, with the line to add to API_KEYS_FILE (which holds only
 * its SHA-256 hash). --append adds that line to the file (created readable by its owner only).
 * Scopes: read, write, admin (comma-separated or repeated); --namespace (repeatable, `*` wildcards)
 * limits what the key may write.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { generateKey, KEY_SCOPES, keyEntry, parseKeys, type KeyScope } from '../src/auth/keys.js';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const USAGE =
  'usage: npm run apikey -- create --scopes read|write|admin[,...] [--namespace NS ...] [--id ID] [--append FILE]';

const OPTIONS = {
  scopes: { type: 'string', multiple: true },
  scope: { type: 'string', multiple: true },
  namespace: { type: 'string', multiple: true },
  id: { type: 'string' },
  append: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
let parsedArgs: ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>>;
try {
  parsedArgs = parseArgs({ allowPositionals: true, options: OPTIONS });
} catch (err) {
  // A missing value or an unknown option: say which, not a stack trace.
  fail(`${(err as Error).message}\n${USAGE}`);
}
const { positionals, values } = parsedArgs;

if (values.help || positionals[0] !== 'create') fail(USAGE);
const scopes = [...(values.scopes ?? []), ...(values.scope ?? [])]
  .flatMap((s) => s.split(','))
  .map((s) => s.trim())
  .filter(Boolean);
if (scopes.length === 0) fail(`--scopes is required (${KEY_SCOPES.join(', ')})\n${USAGE}`);
for (const s of scopes)
  if (!KEY_SCOPES.includes(s as KeyScope)) fail(`unknown scope '${s}': use ${KEY_SCOPES.join(', ')}`);
const namespaces = values.namespace ?? null;
const id =
  values.id ??
  [
    [...new Set(scopes)].join('-'),
    ...(namespaces ? [namespaces[0].replace(/[^A-Za-z0-9]+/g, '-')] : []),
    new Date().toISOString().slice(0, 10),
  ].join('-');
const key = generateKey();
const line = keyEntry(id, key, [...new Set(scopes)] as KeyScope[], namespaces);
// The line must load: an empty --id or --namespace would make the keys file stop the service's start.
try {
  parseKeys(line, 'the new key');
} catch (err) {
  fail((err as Error).message);
}

if (values.append) {
  const file = values.append;
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  try {
    parseKeys(`${existing}\n${line}\n`, file);
  } catch (err) {
    fail(`not appended: ${(err as Error).message}`);
  }
  fs.appendFileSync(file, `${existing === '' || existing.endsWith('\n') ? '' : '\n'}${line}\n`, { mode: 0o600 });
}

console.log(`API key (shown once; the service stores only its hash):\n\n  ${key}\n`);
console.log(
  values.append
    ? `Added to ${values.append}:\n\n  ${line}\n`
    : `Add this line to API_KEYS_FILE (or set API_KEYS to it):\n\n  ${line}\n`,
);
console.log(`Use it as: curl -H 'Authorization: Bearer ${key}' ...  (or -H 'X-Api-Key: ...')`);
