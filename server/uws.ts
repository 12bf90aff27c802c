// Loads the native uWebSockets.js binary directly. The package's own entry point falls back to a
// slow pure-JS imitation with a console warning when the binary does not load; a server that
// silently runs on that fallback is a performance bug nobody notices, so a failed load here is an
// error at start-up naming the file it looked for.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Uws from 'uWebSockets.js';

export type { HttpRequest, HttpResponse, us_listen_socket } from 'uWebSockets.js';

/** The app; the binary has `close()` (closes every socket) though this version's typings omit it. */
export type App = Uws.TemplatedApp & { close(): void };

const require = createRequire(import.meta.url);

function loadNative(): typeof Uws {
  const packageDir = dirname(require.resolve('uWebSockets.js/package.json'));
  const file = join(packageDir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`);
  try {
    return require(file) as typeof Uws;
  } catch (e) {
    throw new Error(`uWebSockets.js: the native binary ${file} did not load (${(e as Error).message}); ` +
      'this Node.js version or platform has no build of it', { cause: e });
  }
}

let loaded: typeof Uws | null = null;

/** The native uWS module, loaded on first use (throws if the binary is missing). */
export function uws(): typeof Uws {
  loaded ??= loadNative();
  return loaded;
}

/** A new non-TLS app. */
export function createApp(): App {
  return uws().App() as App;
}

/** A new TLS app serving the PEM certificate and key files (checked readable by the caller). */
export function createSSLApp(certFile: string, keyFile: string): App {
  return uws().SSLApp({ cert_file_name: certFile, key_file_name: keyFile }) as App;
}
