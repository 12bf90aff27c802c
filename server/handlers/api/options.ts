// GET /api/option/:name (SPEC §4): the configured value as a bare JSON value. One table of
// readable options, which issue 9 grows with the full option table.
import type { Handler } from '../context.js';
import type { ServerSettings } from '../context.js';

export const READABLE_OPTIONS: Record<string, (s: ServerSettings) => number> = {
  'max-in-buffer-size': (s) => s.maxInBufferSize,
  parallelism: (s) => s.parallelismCount,
};

export function readOption(name: keyof typeof READABLE_OPTIONS): Handler {
  const read = READABLE_OPTIONS[name]!;
  return (ctx) => ctx.reply.send(200, JSON.stringify(read(ctx.state.settings)), { 'Content-Type': 'application/json' });
}
