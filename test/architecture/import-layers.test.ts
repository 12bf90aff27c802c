// Imports go one way, `server → engine → grammar` (DESIGN.md, Layout): the server imports only
// engine/index.ts, nothing in engine/ or grammar/ imports server/, grammar/ imports nothing of
// ours, and no two siblings — folders, or files beside them — import each other (directly or
// round a circle).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Import } from './import-graph.js';
import { folderCycles, importSpecifiers, isUnder, readImports, sourceFiles } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FILES = sourceFiles(ROOT, ['engine', 'grammar', 'server']);
const IMPORTS = readImports(ROOT, FILES);

/**
 * Circles that predate this test, each in a folder its owner is restructuring. Remove an entry
 * when its circle is broken (the test fails until you do, so the list only shrinks).
 */
const KNOWN_CYCLES: readonly string[] = [
  // catalog/entry-store.ts → durability/wal/records.ts; durability/checkpoint/checkpoint.ts → catalog/entry-store.ts
  'engine: catalog ↔ durability',
  // handlers/context.ts → http/reply.ts …; http/dispatch.ts and http/assets.ts → handlers/context.ts
  'server: handlers ↔ http',
];

interface Rule {
  readonly files: string;
  readonly says: string;
  /** Whether a file under `files` may import the repository file `to`. */
  readonly allows: (to: string) => boolean;
}

const RULES: readonly Rule[] = [
  { files: 'server', says: 'the server imports only engine/index.ts of the engine, and no grammar', allows: (to) => isUnder(to, 'server') || to === 'engine/index.ts' },
  { files: 'engine', says: 'the engine imports only the engine and the grammar', allows: (to) => isUnder(to, 'engine') || isUnder(to, 'grammar') },
  { files: 'grammar', says: 'the grammar imports nothing of ours but its own files', allows: (to) => isUnder(to, 'grammar') },
];

const show = (imports: readonly Import[]): string[] => imports.map((i) => `${i.from} → ${i.to}`);

describe('import layers of the source folders', () => {
  it('reads a plausible number of files and imports', () => {
    assert.ok(FILES.length > 100, `only ${FILES.length} source files found under ${ROOT}`);
    assert.ok(IMPORTS.filter((i) => !i.isPackage).length > FILES.length, 'too few relative imports read');
  });

  it('resolves every relative import to a file that exists', () => {
    const missing = IMPORTS.filter((i) => !i.isPackage && !existsSync(join(ROOT, i.to)));
    assert.deepEqual(show(missing), []);
  });

  for (const rule of RULES) {
    it(`${rule.files}/: ${rule.says}`, () => {
      const broken = IMPORTS.filter((i) => !i.isPackage && isUnder(i.from, rule.files) && !rule.allows(i.to));
      assert.deepEqual(show(broken), []);
    });
  }

  it('has no circle between sibling folders and files beyond the known ones', () => {
    assert.deepEqual(folderCycles(IMPORTS), [...KNOWN_CYCLES].sort());
  });
});

describe('the import reader itself', () => {
  const cases: readonly { text: string; specs: readonly string[] }[] = [
    { text: "import { a } from './a.js';", specs: ['./a.js'] },
    { text: "import type {\n  B,\n  C,\n} from '../b/c.js';", specs: ['../b/c.js'] },
    { text: "export type { D } from './d.js';\nexport * from \"./e.js\";", specs: ['./d.js', './e.js'] },
    { text: "import './side.js';\nimport fs from 'node:fs';", specs: ['node:fs', './side.js'] },
    { text: "const m = await import('./late.js');", specs: ['./late.js'] },
    { text: "// not an import: x from './no.js'\nconst s = 'from \\'./no.js\\'';", specs: [] },
  ];
  for (const { text, specs } of cases) {
    it(`finds ${JSON.stringify(specs)} in ${JSON.stringify(text.slice(0, 40))}`, () => {
      assert.deepEqual(importSpecifiers(text).sort(), [...specs].sort());
    });
  }

  const rel = (from: string, to: string): Import => ({ from, to, isPackage: false });
  const graphs: readonly { name: string; imports: readonly Import[]; cycles: readonly string[] }[] = [
    { name: 'a one-way chain', imports: [rel('x/a/1.ts', 'x/b/1.ts'), rel('x/b/1.ts', 'x/c/1.ts')], cycles: [] },
    { name: 'two siblings importing each other', imports: [rel('x/a/1.ts', 'x/b/1.ts'), rel('x/b/deep/2.ts', 'x/a/3.ts')], cycles: ['x: a ↔ b'] },
    { name: 'a circle of three', imports: [rel('a/1.ts', 'b/1.ts'), rel('b/1.ts', 'c/1.ts'), rel('c/1.ts', 'a/2.ts')], cycles: ['.: a ↔ b ↔ c'] },
    { name: 'a door and the folder it opens', imports: [rel('x/door.ts', 'x/a/1.ts'), rel('x/a/1.ts', 'x/leaf.ts'), rel('x/b/1.ts', 'x/leaf.ts')], cycles: [] },
    { name: 'a folder importing the file that imports it', imports: [rel('x/door.ts', 'x/a/1.ts'), rel('x/a/1.ts', 'x/door.ts')], cycles: ['x: a ↔ door.ts'] },
    { name: 'two files beside each other', imports: [rel('x/y/a.ts', 'x/y/b.ts'), rel('x/y/b.ts', 'x/y/a.ts'), rel('x/y/a.ts', 'x/y/a.ts')], cycles: ['x/y: a.ts ↔ b.ts'] },
    // engine/ before the log interface: figures.ts → replication.ts → query/catalog.ts → write/ → figures.ts.
    {
      name: 'root files in a circle through sibling folders',
      imports: [rel('e/figures.ts', 'e/replication.ts'), rel('e/replication.ts', 'e/query/catalog.ts'), rel('e/query/catalog.ts', 'e/write/index.ts'), rel('e/write/write-path.ts', 'e/figures.ts'), rel('e/database.ts', 'e/figures.ts')],
      cycles: ['e: figures.ts ↔ query ↔ replication.ts ↔ write'],
    },
    { name: 'a circle one level down', imports: [rel('x/y/a/1.ts', 'x/y/b/1.ts'), rel('x/y/b/1.ts', 'x/y/a/1.ts'), rel('x/z.ts', 'x/y/a/1.ts')], cycles: ['x/y: a ↔ b'] },
  ];
  for (const { name, imports, cycles } of graphs) {
    it(`finds the circles of ${name}`, () => {
      assert.deepEqual(folderCycles(imports), cycles);
    });
  }
});
