// esbuild bundles imported stylesheets into dist/app.css; to the type checker they are modules too.
declare module '*.css';
