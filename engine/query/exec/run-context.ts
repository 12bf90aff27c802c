// Per-query execution state shared by the operators: the deadline, the scratch buffers and the
// logical scanned-values counter of SPEC §7.
import type { Deadline } from '../deadline.js';
import { Scratch } from './scratch.js';

export class RunContext {
  readonly scratch = new Scratch();
  scannedRowsCount = 0;

  constructor(readonly deadline: Deadline) {}
}
