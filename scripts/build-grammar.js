// Compiles the Nearley grammar (grammar/main.ne and the files it @includes) into
// grammar/generated-grammar.ts, run by `npm run build` before tsc. The output is regenerated on
// every build and marked as generated; never edit it by hand.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nearleyc = join(root, 'node_modules', 'nearley', 'bin', 'nearleyc.js');
const source = join(root, 'grammar', 'main.ne');
const target = join(root, 'grammar', 'generated-grammar.ts');

const HEADER = '// GENERATED FILE - DO NOT EDIT. Built from grammar/*.ne by scripts/build-grammar.js (nearleyc).\n';

// nearley's TypeScript template is slightly too narrow for a grammar with a lexer: `%type`
// symbols are `{type}` objects, and our postprocessors take typed tuples rather than any[].
// Widening those two declarations keeps the generated file type-checked, so a misspelt
// `b.helper` in a .ne file is a compile error rather than a silently missing postprocessor.
const PATCHES = [
  ['type NearleySymbol = string | { literal: any } | { test: (token: any) => boolean };',
    'type NearleySymbol = string | { literal: any } | { type: string } | { test: (token: any) => boolean };'],
  ['postprocess?: (d: any[], loc?: number, reject?: {}) => any;',
    'postprocess?: (d: any, loc?: number, reject?: {}) => any;'],
];

const compiled = execFileSync(process.execPath, [nearleyc, source], { encoding: 'utf8' });
// nearleyc declares the fallback name of every %token as `declare var X: any`. For the word
// testers the grammar imports from lexer.ts that declaration would clash with the import.
const imported = new Set([...compiled.matchAll(/^import \{([^}]*)\}/gm)].flatMap((m) => m[1].split(',').map((n) => n.trim())));
let body = compiled.replace(/^declare var (\w+): any;\n/gm, (line, name) => (imported.has(name) ? '' : line));
for (const [from, to] of PATCHES) {
  if (!body.includes(from)) throw new Error(`build-grammar: nearleyc output changed, cannot find: ${from}`);
  body = body.replace(from, to);
}
const output = HEADER + body;

let previous = '';
try {
  previous = readFileSync(target, 'utf8');
} catch {
  // first build: nothing to compare with
}
if (previous !== output) writeFileSync(target, output);
console.log(`build-grammar: ${previous === output ? 'unchanged' : 'wrote'} ${target}`);
