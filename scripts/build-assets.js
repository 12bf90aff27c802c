// Builds the dashboard: assets/src/main.ts (and the CSS it imports) bundled by esbuild into
// assets/dist/app.js and app.css, which assets/index.html loads. Everything the page needs is in
// the bundle (no CDN). assets/dist is generated and git-ignored.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
await build({
  absWorkingDir: root,
  entryPoints: { app: 'assets/src/main.ts' },
  outdir: 'assets/dist',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`build-assets: assets/dist/app.{js,css} in ${(performance.now() - started).toFixed(0)} ms`);
