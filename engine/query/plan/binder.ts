// Binds AST expressions of one source table into typed plan expressions. Row context (WHERE,
// aggregate arguments, plain select lists) reads columns; group context (select lists, HAVING and
// ORDER BY of aggregate queries) reads aggregates, grouped columns and the bucket start, and
// rejects bare columns (SPEC §6). Every unknown name or misplaced construct is a semantic error
// at its offset.
import { INT64_MAX, INT64_MIN, resolveTimePoint } from '../../../grammar/index.js';
import type { Call, Expr, Star } from '../../../grammar/index.js';
import type { SequenceFn } from './functions.js';
import { acceptsType, isAggregateName } from './aggregate-registry.js';
import { bindScalar } from './bind-scalars.js';
import { isScalarName, isSequenceName, SEQUENCE_ALIASES } from './functions.js';
import type { SequenceName } from './functions.js';
import type { SequenceCollector } from './sequence-collector.js';
import { semanticError } from '../query-errors.js';
import type { AggregateCollector } from './aggregate-collector.js';
import type { ColumnScope } from './column-scope.js';
import { bindArith, bindCompare, bindIn, bindLogic, bindNegate, bindNot, bindRegex, bindShift, constant } from './bind-operators.js';
import type { PlanExpr } from './plan-expr.js';
import { VALUE_TYPES } from './value-type.js';

/** What group context may read: the bucket, the grouped columns, and the aggregates. */
export interface GroupScope {
  readonly hasBucket: boolean;
  /** Batch column index of each GROUP BY column, by key slot. */
  readonly keyColumns: readonly number[];
  readonly aggregates: AggregateCollector;
}

/** The largest window of moving_average and distance of lag: each partition keeps that many values. */
export const MAX_SEQUENCE_WINDOW = 65_536;

const NS_PER_SECOND = 1e9;

export class Binder {
  private nextId: number;
  private isInAggregate = false;
  private isInCondition = false;
  /** Batch column indexes the query references (SPEC §7 scanned rows). */
  readonly referenced = new Set<number>();
  readonly newId = (): number => this.nextId++;

  constructor(
    /** The columns expressions may name: one table's, or joined tables'. */
    readonly scope: ColumnScope,
    private readonly nowNs: bigint,
    private readonly group: GroupScope | null,
    /** Where row-sequence calls go (select list and ORDER BY); null: not allowed. */
    private readonly sequences: SequenceCollector | null = null,
    /** The id of the first node bound. */
    firstId = 0,
  ) {
    this.nextId = firstId;
  }

  /** Binds in row context. */
  row(e: Expr): PlanExpr {
    return this.bind(e, false);
  }

  /** Binds in group context (only for aggregate queries). */
  grouped(e: Expr): PlanExpr {
    return this.bind(e, true);
  }

  /** Binds a condition: the result must be boolean. */
  condition(e: Expr, isGroup: boolean, clause: string): PlanExpr {
    this.isInCondition = true;
    let c: PlanExpr;
    try {
      c = this.bind(e, isGroup);
    } finally {
      this.isInCondition = false;
    }
    if (c.type !== 'bool') throw semanticError(`${clause} needs a condition, not a ${c.type} value`, e.offset);
    return c;
  }

  /** A plain column reference in row context (also used for GROUP BY columns). */
  column(name: string, offset: number): PlanExpr {
    if (name === '$timestamp') {
      this.referenced.add(0);
      return { kind: 'column', id: this.newId(), type: 'timestamp', offset, index: 0 };
    }
    const c = this.scope.resolve(name, offset);
    this.referenced.add(c.index);
    return { kind: 'column', id: this.newId(), type: VALUE_TYPES[c.type], offset, index: c.index };
  }

  /** Marks every schema column as referenced (`*`, `count(*)`). */
  referenceAll(): void {
    for (const c of this.scope.columns) this.referenced.add(c.index);
  }

  private bind(e: Expr | Star, isGroup: boolean): PlanExpr {
    const id = this.newId;
    switch (e.kind) {
      case 'Column':
        if (e.name === '$table') return constant(id(), 'string', this.scope.name, e.offset);
        return isGroup ? this.groupColumn(e.name, e.offset) : this.column(e.name, e.offset);
      case 'Number':
        if (!e.isInteger) return constant(id(), 'double', e.value, e.offset);
        if (e.value < INT64_MIN || e.value > INT64_MAX) throw semanticError(`integer ${e.text} is outside the int64 range`, e.offset);
        return constant(id(), 'int64', e.value, e.offset);
      case 'String': return constant(id(), 'string', e.value, e.offset);
      case 'Null': return constant(id(), 'null', null, e.offset);
      case 'Boolean': return constant(id(), 'boolean', e.value ? 1 : 0, e.offset);
      case 'TimePoint': return constant(id(), 'timestamp', resolveTimePoint(e, this.nowNs), e.offset);
      case 'Duration': throw semanticError('a duration can only be added to or subtracted from a time', e.offset);
      case 'Star': throw semanticError("'*' is only allowed as a select item or in count(*)", e.offset);
      case 'Unary': {
        const v = this.bind(e.operand, isGroup);
        return e.op === 'NOT' ? bindNot(id, v, e.offset) : bindNegate(id, v, e.offset);
      }
      case 'Binary': {
        const { op, left, right } = e;
        if ((op === '+' || op === '-') && right.kind === 'Duration') return bindShift(id, this.bind(left, isGroup), right, op === '+' ? 1 : -1, e.offset);
        if (op === '+' && left.kind === 'Duration') return bindShift(id, this.bind(right, isGroup), left, 1, e.offset);
        const l = this.bind(left, isGroup);
        const r = this.bind(right, isGroup);
        switch (op) {
          case '+': case '-': case '*': case '/': return bindArith(id, op, l, r, e.offset);
          case '=': case '!=': case '<': case '<=': case '>': case '>=': return bindCompare(id, op, l, r, e.offset);
          case '~': case '!~': case '~*': case '!~*': return bindRegex(id, op, l, r, e.offset);
        }
        throw new Error(`grammar bug: operator ${String(op)}`);
      }
      case 'Logical': return bindLogic(id, e.op, e.operands.map((o) => this.bind(o, isGroup)), e.offset);
      case 'InList': return bindIn(id, this.bind(e.operand, isGroup), e.values.map((v) => this.bind(v, isGroup)), e.isNegated, e.offset);
      case 'Call': {
        const name = e.name.toLowerCase();
        if (isScalarName(name)) {
          return bindScalar(id, name, e.args.map((a) => this.bind(a, isGroup)), e.offset);
        }
        if (isSequenceName(name)) return this.sequence(e, name, isGroup);
        if (!isAggregateName(name)) throw semanticError(`unknown function '${e.name}'`, e.offset);
        if (this.isInAggregate) throw semanticError(`aggregate ${e.name}() cannot be nested inside another aggregate`, e.offset);
        if (!isGroup || this.group === null) throw semanticError(`aggregate ${e.name}() is not allowed here`, e.offset);
        return this.aggregate(e, this.group);
      }
    }
  }

  /**
   * A row-sequence call: over rows in a plain query, over the buckets of GROUP BY duration in an
   * aggregate query (its argument then reads aggregates: `derivative(max(c))`).
   */
  private sequence(e: Call, name: SequenceName, isGroup: boolean): PlanExpr {
    const fn = SEQUENCE_ALIASES[name];
    if (this.sequences === null || this.isInCondition || this.isInAggregate) {
      throw semanticError(`${name}() is only allowed in the select list and ORDER BY, outside aggregates`, e.offset);
    }
    if (isGroup && !this.group!.hasBucket) {
      throw semanticError(`${name}() over aggregates needs GROUP BY duration: it follows the buckets in time order`, e.offset);
    }
    const [min, max] = fn === 'moving_average' ? [2, 2] : fn === 'cumsum' || fn === 'delta' ? [1, 1] : [1, 2];
    if (e.args.length < min || e.args.length > max) {
      const count = min === max ? `exactly ${min}` : `${min} or ${max}`;
      throw semanticError(`${name}() takes ${count} argument${max === 1 ? '' : 's'}, not ${e.args.length}`, e.offset);
    }
    const [argAst, param] = e.args;
    const arg = this.bind(argAst, isGroup);
    const isNumber = arg.type === 'double' || arg.type === 'int64' || arg.type === 'null';
    const accepts = fn === 'lag' ? arg.type !== 'bool' : fn === 'delta' ? isNumber || arg.type === 'timestamp' : isNumber;
    if (!accepts) throw semanticError(`${name}() does not accept a ${arg.type} argument`, argAst.offset);
    let n = 1;
    let unitNs = NS_PER_SECOND;
    if (param !== undefined && (fn === 'moving_average' || fn === 'lag')) n = windowOf(name, param, fn === 'lag' ? 0 : 1);
    if (param !== undefined && (fn === 'derivative' || fn === 'non_negative_derivative')) unitNs = unitOf(name, param);
    const type = sequenceType(fn, arg.type);
    if (arg.type === 'null') return constant(this.newId(), type, null, e.offset);
    const slot = this.sequences.add(fn, arg, type, n, unitNs, this.newId());
    return { kind: 'sequence', id: this.newId(), type, offset: e.offset, slot };
  }

  private groupColumn(name: string, offset: number): PlanExpr {
    const group = this.group!;
    if (name === '$timestamp' && group.hasBucket) {
      this.referenced.add(0);
      return { kind: 'bucket', id: this.newId(), type: 'timestamp', offset };
    }
    const ref = this.column(name, offset);
    const slot = group.keyColumns.indexOf((ref as PlanExpr & { kind: 'column' }).index);
    if (slot < 0) throw semanticError(`column '${name}' must appear in GROUP BY or inside an aggregate`, offset);
    return { kind: 'groupKey', id: this.newId(), type: ref.type, offset, slot };
  }

  private aggregate(e: Call, group: GroupScope): PlanExpr {
    const name = e.name.toLowerCase();
    if (!isAggregateName(name)) throw semanticError(`unknown function '${e.name}'`, e.offset);
    if (e.args.length !== 1) throw semanticError(`${name}() takes exactly one argument`, e.offset);
    const argAst = e.args[0];
    let arg: PlanExpr;
    if (argAst.kind === 'Star') {
      if (name !== 'count') throw semanticError(`only count accepts '*', not ${name}()`, argAst.offset);
      // count(*) inside an expression counts rows: `$timestamp` is never null.
      this.referenceAll();
      arg = { kind: 'column', id: this.newId(), type: 'timestamp', offset: argAst.offset, index: 0 };
    } else {
      this.isInAggregate = true;
      try {
        arg = this.bind(argAst, false);
      } finally {
        this.isInAggregate = false;
      }
    }
    if (!acceptsType(name, arg.type)) throw semanticError(`${name}() does not accept a ${arg.type} argument`, argAst.offset);
    const slot = group.aggregates.add(name, arg);
    const call = group.aggregates.calls[slot];
    return { kind: 'aggregate', id: this.newId(), type: call.type, offset: e.offset, slot };
  }
}

/** The result type of a sequence function over `arg`. */
function sequenceType(fn: SequenceFn, arg: PlanExpr['type']): PlanExpr['type'] {
  if (arg === 'null') return fn === 'lag' ? 'null' : 'double';
  switch (fn) {
    case 'cumsum': return arg;
    case 'delta': return arg === 'double' ? 'double' : 'int64';
    case 'lag': return arg;
    default: return 'double';
  }
}

/** The window of moving_average / distance of lag: a whole number literal from `min`. */
function windowOf(name: string, e: Expr | Star, min: number): number {
  if (e.kind !== 'Number' || !e.isInteger || e.value < BigInt(min) || e.value > BigInt(MAX_SEQUENCE_WINDOW)) {
    throw semanticError(`the second argument of ${name}() must be a whole number from ${min} to ${MAX_SEQUENCE_WINDOW}`, e.offset);
  }
  return Number(e.value);
}

/** The time unit of a derivative: a positive fixed duration (`1min`, `1h`; no months). */
function unitOf(name: string, e: Expr | Star): number {
  if (e.kind !== 'Duration' || e.months !== 0 || e.nanos <= 0n) {
    throw semanticError(`the unit of ${name}() must be a positive duration without months or years, such as 1s or 1min`, e.offset);
  }
  return Number(e.nanos);
}
