// Test-only: the external programs some tests talk to (influxd, prometheus, promtool, the influx
// CLI, python3's influxdb module), installed by scripts/install-test-peers.sh. Outside CI a
// missing peer skips its test with a message naming the script; with CI=true it fails the test.
import { spawnSync } from 'node:child_process';

const INSTALL = 'run scripts/install-test-peers.sh (as root) to install it';

/** null when `command` runs here; else the reason to skip (throws under CI=true). */
export function peerMissing(command: string, probe: readonly string[] = ['--version']): string | null {
  const r = spawnSync(command, probe, { encoding: 'utf8', timeout: 20_000 });
  if (r.error === undefined && r.status !== null) return null;
  const reason = `${command} is not installed: ${INSTALL}`;
  if (process.env.CI === 'true') throw new Error(`CI=true and a test peer is missing: ${reason}`);
  return reason;
}

/** null when python3 can import `module`; else the reason to skip (throws under CI=true). */
export function pythonModuleMissing(module: string): string | null {
  const r = spawnSync('python3', ['-c', `import ${module}`], { encoding: 'utf8', timeout: 20_000 });
  if (r.status === 0) return null;
  const reason = `python3 module ${module} is not installed: ${INSTALL}`;
  if (process.env.CI === 'true') throw new Error(`CI=true and a test peer is missing: ${reason}`);
  return reason;
}
