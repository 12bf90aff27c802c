// Public exports of the query front end (grammar/): parse() and its error, the AST types, and the
// time helpers the executor needs so that calendar rules live in one place.
export { earleyParses, parse, parseAll, parseInSteps } from './parse.js';
export { literalShapeOf, parseShaped, shapeKey } from './parse-shape.js';
export type { LiteralShape } from './parse-shape.js';
export { QuerySyntaxError, isQuerySyntaxError } from './errors.js';
export type * from './ast.js';
export { formatExpr } from './format-expr.js';
export { KEYWORDS, tokenize } from './lexer.js';
export type { Token } from './lexer.js';
export { formatDuration, parseDurationText, unitOf } from './duration.js';
export type { DurationUnit, DurationValue } from './duration.js';
export {
  INT64_MAX, INT64_MIN, NS_PER_DAY, addDuration, bucketStart, civilFromDays, daysFromCivil, daysInMonth,
  floorDiv, formatTimestamp, isBucketDuration, isDuration, isLeapYear, parseTimeLiteral, resolveRange,
  REPRESENTABLE_TIMES, resolveTimePoint, yearStartNs,
} from './time.js';
