// The import graph of the repository's source folders, read from the TypeScript sources as text
// (type-only imports count: they are dependencies too), and the two questions DESIGN.md's layout
// asks of it: which imports cross a forbidden boundary, and which sibling folders and files import
// each other in a circle.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

/** One import of a source file: `from` and `to` are repository-relative paths with `/`. */
export interface Import {
  readonly from: string;
  /** The imported file (`.ts`), or the bare specifier of a package (`moo`, `node:fs`). */
  readonly to: string;
  readonly isPackage: boolean;
}

// Imports start a line (the house style puts them at the top, one statement each); their clause
// may span lines. `import(…)` with a literal may stand anywhere.
const STATIC = /^(?:import|export)\s[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT = /^import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The module specifiers a source text imports, in no particular order. */
export function importSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [STATIC, SIDE_EFFECT, DYNAMIC]) {
    for (const m of text.matchAll(pattern)) found.push(m[1]!);
  }
  return found;
}

const toPosix = (p: string): string => p.split(sep).join('/');

/** Every `.ts` file under `folders` of `root` (repository-relative, `/`-separated). */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) files.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  return files;
}

/** The imports of `files`; a relative specifier is resolved to the `.ts` file it names. */
export function readImports(root: string, files: readonly string[]): Import[] {
  const imports: Import[] = [];
  for (const file of files) {
    for (const spec of importSpecifiers(readFileSync(join(root, file), 'utf8'))) {
      if (!spec.startsWith('.')) {
        imports.push({ from: file, to: spec, isPackage: true });
        continue;
      }
      const target = toPosix(normalize(join(dirname(file), spec))).replace(/\.js$/, '.ts');
      imports.push({ from: file, to: target, isPackage: false });
    }
  }
  return imports;
}

/** Whether `path` is `folder` itself or lies below it. */
export function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/**
 * Sibling folders and files that import each other in a circle. For every folder, its
 * sub-folders (each with everything below it) and its own files are the nodes, and an import
 * from a file of one into a file of another is an edge (type-only imports included). Each
 * strongly connected set of two or more nodes is one circle, reported as `parent: a ↔ b [↔ …]`
 * (names sorted; a file keeps its `.ts`).
 */
export function folderCycles(imports: readonly Import[]): string[] {
  const edges = new Map<string, Map<string, Set<string>>>();
  for (const { from, to, isPackage } of imports) {
    if (isPackage) continue;
    const a = from.split('/');
    const b = to.split('/');
    // The deepest folder holding both files, and what of it each file lies in: a sub-folder, or
    // the file itself when it lies in that folder directly.
    let depth = 0;
    while (depth < a.length - 1 && depth < b.length - 1 && a[depth] === b[depth]) depth++;
    if (a[depth] === b[depth]) continue; // a file importing itself
    const parent = a.slice(0, depth).join('/');
    const graph = edges.get(parent) ?? new Map<string, Set<string>>();
    edges.set(parent, graph);
    const targets = graph.get(a[depth]!) ?? new Set<string>();
    graph.set(a[depth]!, targets);
    targets.add(b[depth]!);
  }
  const cycles: string[] = [];
  for (const [parent, graph] of edges) {
    for (const component of stronglyConnected(graph)) {
      if (component.length > 1) cycles.push(`${parent || '.'}: ${component.sort().join(' ↔ ')}`);
    }
  }
  return cycles.sort();
}

/** Tarjan's strongly connected components of a small directed graph. */
function stronglyConnected(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components;
}
