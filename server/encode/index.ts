// Result encoders, one file per wire format: pure functions of the engine's QueryResult that
// lazily produce ~64 KiB chunks straight from its typed arrays (SPEC §4, §7).
export { encodeQueryExp } from './query-exp.js';
export type { DateFormat } from './query-exp.js';
export { encodeApiQuery } from './api-query.js';
export { encodeArrowStream, ARROW_STREAM_MIME } from './arrow-stream.js';
