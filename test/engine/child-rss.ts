// Test-only: runs an engine script as a child process while sampling its resident memory from
// /proc every 50 ms (memory-rss.test.ts, transfer/export-rss.test.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { onLines } from './helpers.js';

export interface ChildRun {
  readonly lines: string[];
  readonly maxRss: number;
  readonly signal: string | null;
  readonly stderr: string;
}

/**
 * Runs the child, sampling its RSS every 50 ms; `killWhen` sees each line and may ask for a
 * SIGKILL. A child still running after `timeoutMs` is killed and fails the test.
 */
export function childRunner(script: string): (args: string[], timeoutMs: number, killWhen?: (line: string) => boolean) => Promise<ChildRun> {
  return (args, timeoutMs, killWhen = () => false) => runChild(script, args, timeoutMs, killWhen);
}

function runChild(script: string, args: string[], timeoutMs: number, killWhen: (line: string) => boolean): Promise<ChildRun> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  let maxRss = 0;
  let isTimedOut = false;
  const sample = setInterval(() => {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (kb !== null) maxRss = Math.max(maxRss, Number(kb[1]) * 1024);
    } catch { /* the child has exited */ }
  }, 50);
  const watchdog = setTimeout(() => { isTimedOut = true; child.kill('SIGKILL'); }, timeoutMs);
  child.stderr.on('data', (d) => { stderr += d; });
  onLines(child.stdout, (line) => {
    lines.push(line);
    if (killWhen(line)) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (_code, signal) => {
      clearInterval(sample);
      clearTimeout(watchdog);
      if (isTimedOut) reject(new Error(`the child ran past ${timeoutMs} ms: ${stderr}`));
      else resolve({ lines, maxRss, signal, stderr });
    });
  });
}

