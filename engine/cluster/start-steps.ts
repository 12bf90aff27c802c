// The start-up of a cluster node, step by step (cluster-replication.ts). Right after the NATS
// servers start, or after one was killed, or under load, JetStream may answer late or not at all
// for a while ("no suitable peers", a leader election, a timeout): each step is asked again, with
// short pauses, until it answers or its deadline passes. A slow step says so in the log while it
// waits — which step, for how long, and the last error — and the node logs how long each step
// took once it has joined: a node that takes a minute to start tells its operator why.

/** How long each start-up step keeps being asked. */
export const START_DEADLINE_MS = 60_000;
/** A step that has not answered yet says so in the log this often. */
const NOTE_EVERY_MS = 5_000;

export class StartSteps {
  private readonly began = performance.now();
  private readonly took: string[] = [];

  constructor(private readonly log: ((message: string) => void) | undefined, private readonly noteEveryMs = NOTE_EVERY_MS) {}

  /** `attempt` asked until it answers (see the header); its time is kept for `summary`. */
  async run<T>(step: string, attempt: () => Promise<T>, deadlineMs = START_DEADLINE_MS): Promise<T> {
    const t = performance.now();
    let lastError = '';
    // A timer, not a note per failure: an attempt that hangs is said too.
    const note = setInterval(() => {
      this.log?.(`start: ${step}: no answer after ${(performance.now() - t).toFixed(0)} ms${lastError === '' ? '' : ` (last error: ${lastError})`}; asking for up to ${deadlineMs} ms`);
    }, this.noteEveryMs);
    try {
      const value = await retrying(attempt, deadlineMs, (e) => { lastError = e.message; });
      this.took.push(`${step} ${(performance.now() - t).toFixed(0)}`);
      return value;
    } finally {
      clearInterval(note);
    }
  }

  /** e.g. `joined the cluster in 412 ms (ms per step: versions 3, connect 5, …)` */
  summary(): string {
    return `joined the cluster in ${(performance.now() - this.began).toFixed(0)} ms (ms per step: ${this.took.join(', ')})`;
  }
}

/**
 * `attempt` retried (short pauses, growing) until it succeeds or `deadlineMs` has passed; then its
 * last error. `onFailure` hears each failed attempt.
 */
export async function retrying<T>(attempt: () => Promise<T>, deadlineMs: number, onFailure?: (e: Error) => void): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let delay = 50;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (Date.now() + delay > deadline) throw e;
      onFailure?.(e as Error);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 500);
    }
  }
}
