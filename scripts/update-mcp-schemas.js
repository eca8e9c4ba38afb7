// Copies the official MCP JSON Schema files, unchanged, from the specification's repository
// (github.com/modelcontextprotocol/modelcontextprotocol, schema/<revision>/schema.json) into
// schemas/mcp/<revision>/schema.json, and writes the commit they came from into schemas/mcp/README.md.
// Why a script: the files are the contract `mcp conform` judges servers by (schema.frames); they must
// never be hand-edited, and updating them must be one command. No npm package publishes them.
//   node scripts/update-mcp-schemas.js PATH [TARGET]   PATH: a clone or a bare repository of the spec repository;
//   TARGET: the folder to write (default schemas/mcp; the test writes a temporary one)
// The revision list is fixed here on purpose: a new revision is a decision (its results and handshake
// may need code), not something a pull silently brings in.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];
const SOURCE = 'https://github.com/modelcontextprotocol/modelcontextprotocol';

const [repo, targetFolder] = process.argv.slice(2);
if (!repo) {
  console.error('usage: node scripts/update-mcp-schemas.js PATH (a clone or bare repository of ' + SOURCE + ')');
  process.exit(2);
}

const git = (...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const target = (path) => (targetFolder ? `${targetFolder}/${path}` : fileURLToPath(new URL(`../schemas/mcp/${path}`, import.meta.url)));

let commit;
try {
  commit = git('rev-parse', 'HEAD').trim();
} catch {
  console.error(`${repo} is not a git repository: give a clone or bare repository of ${SOURCE}`);
  process.exit(2);
}
const date = git('log', '-1', '--format=%cI', commit).trim();

for (const revision of REVISIONS) {
  let text;
  try {
    text = git('show', `${commit}:schema/${revision}/schema.json`);
  } catch {
    console.error(`schema/${revision}/schema.json is missing at ${commit}: is ${repo} the spec repository?`);
    process.exit(1);
  }
  JSON.parse(text); // refuse to vendor a file that is not JSON
  mkdirSync(target(revision), { recursive: true });
  writeFileSync(target(`${revision}/schema.json`), text);
  console.log(`${revision}/schema.json (${Buffer.byteLength(text)} bytes)`);
}

const readmePath = target('README.md');
const readme = readFileSync(readmePath, 'utf8');
const commitLine = `Commit: ${commit} (${date})`;
if (!/^Commit: .*$/m.test(readme)) {
  console.error('schemas/mcp/README.md has no "Commit: " line to rewrite');
  process.exit(1);
}
writeFileSync(readmePath, readme.replace(/^Commit: .*$/m, commitLine));
console.log(commitLine);
