// Test-only: the external programs some tests talk to (influxd, prometheus, promtool, the influx
// CLI, python3's influxdb module), installed by scripts/install-test-peers.sh. Outside CI a
// missing peer skips its test with a message naming the script; with CI=true it fails the test.
import { execFile, spawnSync } from 'node:child_process';

const INSTALL = 'run scripts/install-test-peers.sh (as root) to install it';

/** null when `command` runs here; else the reason to skip (throws under CI=true). */
export function peerMissing(command: string, probe: readonly string[] = ['--version']): string | null {
  const r = spawnSync(command, probe, { encoding: 'utf8', timeout: 20_000 });
  if (r.error === undefined && r.status !== null) return null;
  const reason = `${command} is not installed: ${INSTALL}`;
  if (process.env.CI === 'true') throw new Error(`CI=true and a test peer is missing: ${reason}`);
  return reason;
}

/** Debian's Python, which its python3-* packages install into (a pyenv `python3` may come first on PATH). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** null when Debian's python3 can import `module`; else the reason to skip (throws under CI=true). */
export function pythonModuleMissing(module: string): string | null {
  const r = spawnSync(DEBIAN_PYTHON, ['-c', `import ${module}`], { encoding: 'utf8', timeout: 20_000 });
  if (r.status === 0) return null;
  const reason = `python3 module ${module} is not installed: ${INSTALL}`;
  if (process.env.CI === 'true') throw new Error(`CI=true and a test peer is missing: ${reason}`);
  return reason;
}

/**
 * Runs a peer program without blocking the event loop (a test's server answers it from this
 * very process): exit status and output, killed after `timeoutMs`.
 */
export function runPeer(command: string, args: readonly string[], timeoutMs = 60_000): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ status, output: `${stdout}${stderr}` });
    });
  });
}
