// Test-only: reads a `console` block of the README between `<!-- NAME:start -->` and
// `<!-- NAME:end -->` (lines `$ command` followed by the output they print) and runs it with bash,
// step by step, returning each step's output to compare with the README's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

export interface Step { readonly command: string; readonly expected: string }

export async function readSession(name: string): Promise<Step[]> {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const m = new RegExp(`<!-- ${name}:start -->\\n\`\`\`console\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(readme);
  assert.ok(m !== null, `README.md has no ${name} block`);
  const steps: { command: string; output: string[] }[] = [];
  for (const line of m[1]!.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else if (line !== '' || steps.length > 0) steps.at(-1)!.output.push(line);
  }
  return steps.map((s) => ({ command: s.command, expected: s.output.join('\n').trimEnd() }));
}

/** Runs the steps in one bash (asynchronously: a server under test may run in this process). */
export async function runSession(steps: readonly Step[], options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }): Promise<void> {
  const script = steps.map((s, i) => `printf '\\n@@step %d@@\\n' ${i}\n${s.command}`).join('\n');
  const r = await promisify(execFile)('bash', ['-c', `${script}\nprintf '\\n@@step end@@\\n'`], { encoding: 'utf8', env: options.env, cwd: options.cwd, timeout: options.timeoutMs ?? 60_000 });
  const parts = r.stdout.replaceAll('\r\n', '\n').split(/\n@@step (?:\d+|end)@@\n/);
  assert.equal(parts.length, steps.length + 2, r.stdout);
  steps.forEach((s, i) => {
    assert.equal(parts[i + 1]!.trimEnd(), s.expected, `$ ${s.command}`);
  });
}
