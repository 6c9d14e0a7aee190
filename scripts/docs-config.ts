// npm run docs:config: writes docs/configuration.md and .env.example from the config schema (src/config/).
// With --check it writes nothing and exits 1 when either file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDocuments } from './docs-config/config-documents.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
let stale = 0;
for (const [file, text] of Object.entries(configDocuments())) {
  const path = join(root, file);
  const current = readFileSync(path, { encoding: 'utf8', flag: 'a+' });
  if (current === text) continue;
  stale += 1;
  if (check) console.error(`${file} is stale: run npm run docs:config`);
  else {
    writeFileSync(path, text);
    console.error(`wrote ${file}`);
  }
}
if (check && stale > 0) process.exit(1);
