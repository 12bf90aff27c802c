// GENERATED FILE - DO NOT EDIT. Built from grammar/*.ne by scripts/build-grammar.js (nearleyc).
// Generated automatically by nearley, version 2.20.1
// http://github.com/Hardmath123/nearley
// Bypasses TS6133. Allow declared but unused functions.
// @ts-ignore
function id(d: any[]): any { return d[0]; }
declare var SELECT: any;
declare var FROM: any;
declare var AS: any;
declare var IN: any;
declare var number: any;
declare var timeOfDay: any;
declare var WHERE: any;
declare var GROUP: any;
declare var BY: any;
declare var NULL: any;
declare var duration: any;
declare var ident: any;
declare var qident: any;
declare var HAVING: any;
declare var ORDER: any;
declare var ASC: any;
declare var DESC: any;
declare var LIMIT: any;
declare var OFFSET: any;
declare var FIND: any;
declare var AND: any;
declare var string: any;
declare var NOT: any;
declare var CREATE: any;
declare var TABLE: any;
declare var IF: any;
declare var NOT: any;
declare var EXISTS: any;
declare var string: any;
declare var DROP: any;
declare var TABLE: any;
declare var IF: any;
declare var EXISTS: any;
declare var CREATE: any;
declare var AS: any;
declare var DROP: any;
declare var TABLE: any;
declare var DROP: any;
declare var FROM: any;
declare var INSERT: any;
declare var INTO: any;
declare var VALUES: any;
declare var number: any;
declare var string: any;
declare var NULL: any;
declare var SHOW: any;
declare var OR: any;
declare var AND: any;
declare var NOT: any;
declare var IN: any;
declare var number: any;
declare var string: any;
declare var NULL: any;
declare var duration: any;
declare var ident: any;
declare var RANGE: any;
declare var number: any;
declare var datetime: any;
declare var NOW: any;
declare var TODAY: any;
declare var YESTERDAY: any;
declare var TOMORROW: any;
declare var EPOCH: any;
declare var END_OF_TIME: any;
declare var duration: any;
declare var ident: any;
declare var qident: any;
declare var TRUE: any;
declare var FALSE: any;

import {
  lexer, TAG_WORD, TYPE_WORD, ENTRY_TYPE, COLUMN_TYPE, SYMBOL_WORD, SHARD_SIZE_WORD, UNIT_WORD, ALTER_WORD, ADD_WORD, COLUMN_WORD,
  ASOF_WORD, JOIN_WORD, JOIN_KIND, WITH_WORD, MONTHS_WORD, DAYS_WORD, TIME_WORD, FILL_WORD, FILL_MODE,
  TAGS_WORD, TTL_WORD, SET_WORD, DELETE_WORD, MATERIALIZED_WORD, VIEW_WORD,
} from './lexer.js';
import * as b from './build.js';

interface NearleyToken {
  value: any;
  [key: string]: any;
};

interface NearleyLexer {
  reset: (chunk: string, info: any) => void;
  next: () => NearleyToken | undefined;
  save: () => any;
  formatError: (token: never) => string;
  has: (tokenType: string) => boolean;
};

interface NearleyRule {
  name: string;
  symbols: NearleySymbol[];
  postprocess?: (d: any, loc?: number, reject?: {}) => any;
};

type NearleySymbol = string | { literal: any } | { type: string } | { test: (token: any) => boolean };

interface Grammar {
  Lexer: NearleyLexer | undefined;
  ParserRules: NearleyRule[];
  ParserStart: string;
};

const grammar: Grammar = {
  Lexer: lexer,
  ParserRules: [
    {"name": "query", "symbols": ["statement"], "postprocess": id},
    {"name": "query", "symbols": ["statement", {"literal":";"}], "postprocess": id},
    {"name": "statement", "symbols": ["select"], "postprocess": id},
    {"name": "statement", "symbols": ["find"], "postprocess": id},
    {"name": "statement", "symbols": ["createTable"], "postprocess": id},
    {"name": "statement", "symbols": ["dropTable"], "postprocess": id},
    {"name": "statement", "symbols": ["createView"], "postprocess": id},
    {"name": "statement", "symbols": ["dropView"], "postprocess": id},
    {"name": "statement", "symbols": ["alterTable"], "postprocess": id},
    {"name": "statement", "symbols": ["deleteRows"], "postprocess": id},
    {"name": "statement", "symbols": ["insert"], "postprocess": id},
    {"name": "statement", "symbols": ["show"], "postprocess": id},
    {"name": "select$ebnf$1", "symbols": ["joinClause"], "postprocess": id},
    {"name": "select$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "select$ebnf$2", "symbols": ["inClause"], "postprocess": id},
    {"name": "select$ebnf$2", "symbols": [], "postprocess": () => null},
    {"name": "select$ebnf$3", "symbols": ["whereClause"], "postprocess": id},
    {"name": "select$ebnf$3", "symbols": [], "postprocess": () => null},
    {"name": "select$ebnf$4", "symbols": ["groupByClause"], "postprocess": id},
    {"name": "select$ebnf$4", "symbols": [], "postprocess": () => null},
    {"name": "select$ebnf$5", "symbols": ["havingClause"], "postprocess": id},
    {"name": "select$ebnf$5", "symbols": [], "postprocess": () => null},
    {"name": "select$ebnf$6", "symbols": ["orderByClause"], "postprocess": id},
    {"name": "select$ebnf$6", "symbols": [], "postprocess": () => null},
    {"name": "select$ebnf$7", "symbols": ["limitClause"], "postprocess": id},
    {"name": "select$ebnf$7", "symbols": [], "postprocess": () => null},
    {"name": "select$ebnf$8", "symbols": ["offsetClause"], "postprocess": id},
    {"name": "select$ebnf$8", "symbols": [], "postprocess": () => null},
    {"name": "select", "symbols": [(lexer.has("SELECT") ? {type: "SELECT"} : SELECT), "selectList", (lexer.has("FROM") ? {type: "FROM"} : FROM), "sourceList", "select$ebnf$1", "select$ebnf$2", "select$ebnf$3", "select$ebnf$4", "select$ebnf$5", "select$ebnf$6", "select$ebnf$7", "select$ebnf$8"], "postprocess": b.select},
    {"name": "selectList", "symbols": ["selectItem"], "postprocess": b.list},
    {"name": "selectList", "symbols": ["selectList", {"literal":","}, "selectItem"], "postprocess": b.append},
    {"name": "selectItem", "symbols": [{"literal":"*"}], "postprocess": b.star},
    {"name": "selectItem", "symbols": ["expr"], "postprocess": b.selectColumn},
    {"name": "selectItem", "symbols": ["expr", (lexer.has("AS") ? {type: "AS"} : AS), "name"], "postprocess": b.selectColumnAs},
    {"name": "sourceList", "symbols": ["source"], "postprocess": b.list},
    {"name": "sourceList", "symbols": ["sourceList", {"literal":","}, "source"], "postprocess": b.append},
    {"name": "source", "symbols": ["name"], "postprocess": b.tableRef},
    {"name": "source", "symbols": ["find"], "postprocess": id},
    {"name": "joinClause$ebnf$1", "symbols": [(lexer.has("JOIN_KIND") ? {type: "JOIN_KIND"} : JOIN_KIND)], "postprocess": id},
    {"name": "joinClause$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "joinClause", "symbols": ["joinClause$ebnf$1", (lexer.has("ASOF_WORD") ? {type: "ASOF_WORD"} : ASOF_WORD), (lexer.has("JOIN_WORD") ? {type: "JOIN_WORD"} : JOIN_WORD), "sourceList"], "postprocess": b.asofJoin},
    {"name": "inClause$ebnf$1", "symbols": ["monthsFilter"], "postprocess": id},
    {"name": "inClause$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "inClause$ebnf$2", "symbols": ["daysFilter"], "postprocess": id},
    {"name": "inClause$ebnf$2", "symbols": [], "postprocess": () => null},
    {"name": "inClause$ebnf$3", "symbols": ["timeFilter"], "postprocess": id},
    {"name": "inClause$ebnf$3", "symbols": [], "postprocess": () => null},
    {"name": "inClause", "symbols": [(lexer.has("IN") ? {type: "IN"} : IN), "range", "inClause$ebnf$1", "inClause$ebnf$2", "inClause$ebnf$3"], "postprocess": b.inRange},
    {"name": "inClause$ebnf$4", "symbols": ["monthsFilter"], "postprocess": id},
    {"name": "inClause$ebnf$4", "symbols": [], "postprocess": () => null},
    {"name": "inClause$ebnf$5", "symbols": ["daysFilter"], "postprocess": id},
    {"name": "inClause$ebnf$5", "symbols": [], "postprocess": () => null},
    {"name": "inClause$ebnf$6", "symbols": ["timeFilter"], "postprocess": id},
    {"name": "inClause$ebnf$6", "symbols": [], "postprocess": () => null},
    {"name": "inClause", "symbols": [(lexer.has("IN") ? {type: "IN"} : IN), {"literal":"["}, "rangeList", {"literal":"]"}, "inClause$ebnf$4", "inClause$ebnf$5", "inClause$ebnf$6"], "postprocess": b.inRangeList},
    {"name": "monthsFilter", "symbols": [(lexer.has("WITH_WORD") ? {type: "WITH_WORD"} : WITH_WORD), (lexer.has("MONTHS_WORD") ? {type: "MONTHS_WORD"} : MONTHS_WORD), (lexer.has("IN") ? {type: "IN"} : IN), {"literal":"("}, "integer", {"literal":","}, "integer", {"literal":")"}], "postprocess": b.calendarFilter},
    {"name": "daysFilter", "symbols": [(lexer.has("WITH_WORD") ? {type: "WITH_WORD"} : WITH_WORD), (lexer.has("DAYS_WORD") ? {type: "DAYS_WORD"} : DAYS_WORD), (lexer.has("IN") ? {type: "IN"} : IN), {"literal":"("}, "integer", {"literal":","}, "integer", {"literal":")"}], "postprocess": b.calendarFilter},
    {"name": "timeFilter", "symbols": [(lexer.has("WITH_WORD") ? {type: "WITH_WORD"} : WITH_WORD), (lexer.has("TIME_WORD") ? {type: "TIME_WORD"} : TIME_WORD), (lexer.has("IN") ? {type: "IN"} : IN), {"literal":"("}, "timeOfDay", {"literal":","}, "timeOfDay", {"literal":")"}], "postprocess": b.calendarFilter},
    {"name": "integer", "symbols": [(lexer.has("number") ? {type: "number"} : number)], "postprocess": b.number},
    {"name": "timeOfDay", "symbols": [(lexer.has("timeOfDay") ? {type: "timeOfDay"} : timeOfDay)], "postprocess": b.timeOfDay},
    {"name": "rangeList", "symbols": ["range"], "postprocess": b.list},
    {"name": "rangeList", "symbols": ["rangeList", {"literal":","}, "range"], "postprocess": b.append},
    {"name": "whereClause", "symbols": [(lexer.has("WHERE") ? {type: "WHERE"} : WHERE), "expr"], "postprocess": b.second},
    {"name": "groupByClause$ebnf$1", "symbols": ["fillClause"], "postprocess": id},
    {"name": "groupByClause$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "groupByClause", "symbols": [(lexer.has("GROUP") ? {type: "GROUP"} : GROUP), (lexer.has("BY") ? {type: "BY"} : BY), "groupList", "groupByClause$ebnf$1"], "postprocess": b.groupBy},
    {"name": "fillClause", "symbols": [(lexer.has("FILL_WORD") ? {type: "FILL_WORD"} : FILL_WORD), {"literal":"("}, (lexer.has("NULL") ? {type: "NULL"} : NULL), {"literal":")"}], "postprocess": b.fillMode},
    {"name": "fillClause", "symbols": [(lexer.has("FILL_WORD") ? {type: "FILL_WORD"} : FILL_WORD), {"literal":"("}, (lexer.has("FILL_MODE") ? {type: "FILL_MODE"} : FILL_MODE), {"literal":")"}], "postprocess": b.fillMode},
    {"name": "fillClause", "symbols": [(lexer.has("FILL_WORD") ? {type: "FILL_WORD"} : FILL_WORD), {"literal":"("}, "signedNumber", {"literal":")"}], "postprocess": b.fillValue},
    {"name": "signedNumber", "symbols": [(lexer.has("number") ? {type: "number"} : number)], "postprocess": b.number},
    {"name": "signedNumber", "symbols": [{"literal":"-"}, (lexer.has("number") ? {type: "number"} : number)], "postprocess": b.negativeNumber},
    {"name": "groupList", "symbols": ["groupItem"], "postprocess": b.list},
    {"name": "groupList", "symbols": ["groupList", {"literal":","}, "groupItem"], "postprocess": b.append},
    {"name": "groupItem", "symbols": [(lexer.has("duration") ? {type: "duration"} : duration)], "postprocess": b.duration},
    {"name": "groupItem", "symbols": [(lexer.has("ident") ? {type: "ident"} : ident)], "postprocess": b.groupName},
    {"name": "groupItem", "symbols": [(lexer.has("qident") ? {type: "qident"} : qident)], "postprocess": b.column},
    {"name": "havingClause", "symbols": [(lexer.has("HAVING") ? {type: "HAVING"} : HAVING), "expr"], "postprocess": b.second},
    {"name": "orderByClause", "symbols": [(lexer.has("ORDER") ? {type: "ORDER"} : ORDER), (lexer.has("BY") ? {type: "BY"} : BY), "orderList"], "postprocess": b.third},
    {"name": "orderList", "symbols": ["orderItem"], "postprocess": b.list},
    {"name": "orderList", "symbols": ["orderList", {"literal":","}, "orderItem"], "postprocess": b.append},
    {"name": "orderItem", "symbols": ["expr"], "postprocess": b.orderItem},
    {"name": "orderItem", "symbols": ["expr", (lexer.has("ASC") ? {type: "ASC"} : ASC)], "postprocess": b.orderItem},
    {"name": "orderItem", "symbols": ["expr", (lexer.has("DESC") ? {type: "DESC"} : DESC)], "postprocess": b.orderItem},
    {"name": "limitClause", "symbols": [(lexer.has("LIMIT") ? {type: "LIMIT"} : LIMIT), (lexer.has("number") ? {type: "number"} : number)], "postprocess": b.count},
    {"name": "offsetClause", "symbols": [(lexer.has("OFFSET") ? {type: "OFFSET"} : OFFSET), (lexer.has("number") ? {type: "number"} : number)], "postprocess": b.count},
    {"name": "find", "symbols": [(lexer.has("FIND") ? {type: "FIND"} : FIND), {"literal":"("}, "findConditions", {"literal":")"}], "postprocess": b.find},
    {"name": "findConditions", "symbols": ["findCondition"], "postprocess": b.list},
    {"name": "findConditions", "symbols": ["findConditions", (lexer.has("AND") ? {type: "AND"} : AND), "findCondition"], "postprocess": b.append},
    {"name": "findCondition", "symbols": [(lexer.has("TAG_WORD") ? {type: "TAG_WORD"} : TAG_WORD), {"literal":"="}, (lexer.has("string") ? {type: "string"} : string)], "postprocess": b.findTag},
    {"name": "findCondition", "symbols": [(lexer.has("NOT") ? {type: "NOT"} : NOT), (lexer.has("TAG_WORD") ? {type: "TAG_WORD"} : TAG_WORD), {"literal":"="}, (lexer.has("string") ? {type: "string"} : string)], "postprocess": b.findNotTag},
    {"name": "findCondition", "symbols": [(lexer.has("TYPE_WORD") ? {type: "TYPE_WORD"} : TYPE_WORD), {"literal":"="}, (lexer.has("ENTRY_TYPE") ? {type: "ENTRY_TYPE"} : ENTRY_TYPE)], "postprocess": b.findType},
    {"name": "createTable$ebnf$1", "symbols": ["ifNotExists"], "postprocess": id},
    {"name": "createTable$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "createTable$ebnf$2", "symbols": ["shardSize"], "postprocess": id},
    {"name": "createTable$ebnf$2", "symbols": [], "postprocess": () => null},
    {"name": "createTable$ebnf$3", "symbols": ["withTags"], "postprocess": id},
    {"name": "createTable$ebnf$3", "symbols": [], "postprocess": () => null},
    {"name": "createTable$ebnf$4", "symbols": ["timeToLive"], "postprocess": id},
    {"name": "createTable$ebnf$4", "symbols": [], "postprocess": () => null},
    {"name": "createTable", "symbols": [(lexer.has("CREATE") ? {type: "CREATE"} : CREATE), (lexer.has("TABLE") ? {type: "TABLE"} : TABLE), "createTable$ebnf$1", "name", {"literal":"("}, "columnDefinitions", {"literal":")"}, "createTable$ebnf$2", "createTable$ebnf$3", "createTable$ebnf$4"], "postprocess": b.createTable},
    {"name": "ifNotExists", "symbols": [(lexer.has("IF") ? {type: "IF"} : IF), (lexer.has("NOT") ? {type: "NOT"} : NOT), (lexer.has("EXISTS") ? {type: "EXISTS"} : EXISTS)], "postprocess": b.first},
    {"name": "columnDefinitions", "symbols": ["columnDefinition"], "postprocess": b.list},
    {"name": "columnDefinitions", "symbols": ["columnDefinitions", {"literal":","}, "columnDefinition"], "postprocess": b.append},
    {"name": "columnDefinition", "symbols": ["name", "columnType"], "postprocess": b.columnDefinition},
    {"name": "columnType", "symbols": [(lexer.has("COLUMN_TYPE") ? {type: "COLUMN_TYPE"} : COLUMN_TYPE)], "postprocess": id},
    {"name": "columnType", "symbols": [(lexer.has("SYMBOL_WORD") ? {type: "SYMBOL_WORD"} : SYMBOL_WORD), {"literal":"("}, "name", {"literal":")"}], "postprocess": id},
    {"name": "shardSize", "symbols": [(lexer.has("SHARD_SIZE_WORD") ? {type: "SHARD_SIZE_WORD"} : SHARD_SIZE_WORD), "duration"], "postprocess": b.second},
    {"name": "shardSize", "symbols": [(lexer.has("SHARD_SIZE_WORD") ? {type: "SHARD_SIZE_WORD"} : SHARD_SIZE_WORD), {"literal":"="}, "duration"], "postprocess": b.third},
    {"name": "withTags", "symbols": [(lexer.has("WITH_WORD") ? {type: "WITH_WORD"} : WITH_WORD), (lexer.has("TAGS_WORD") ? {type: "TAGS_WORD"} : TAGS_WORD), {"literal":"="}, {"literal":"["}, "tagList", {"literal":"]"}], "postprocess": b.tagList},
    {"name": "withTags", "symbols": [(lexer.has("WITH_WORD") ? {type: "WITH_WORD"} : WITH_WORD), (lexer.has("TAGS_WORD") ? {type: "TAGS_WORD"} : TAGS_WORD), {"literal":"="}, (lexer.has("string") ? {type: "string"} : string)], "postprocess": b.tagListText},
    {"name": "tagList", "symbols": ["tagName"], "postprocess": b.list},
    {"name": "tagList", "symbols": ["tagList", {"literal":","}, "tagName"], "postprocess": b.append},
    {"name": "tagName", "symbols": ["name"], "postprocess": id},
    {"name": "tagName", "symbols": [(lexer.has("string") ? {type: "string"} : string)], "postprocess": id},
    {"name": "timeToLive", "symbols": [(lexer.has("TTL_WORD") ? {type: "TTL_WORD"} : TTL_WORD), "duration"], "postprocess": b.second},
    {"name": "timeToLive", "symbols": [(lexer.has("TTL_WORD") ? {type: "TTL_WORD"} : TTL_WORD), {"literal":"="}, "duration"], "postprocess": b.third},
    {"name": "dropTable$ebnf$1", "symbols": ["ifExists"], "postprocess": id},
    {"name": "dropTable$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "dropTable", "symbols": [(lexer.has("DROP") ? {type: "DROP"} : DROP), (lexer.has("TABLE") ? {type: "TABLE"} : TABLE), "dropTable$ebnf$1", "name"], "postprocess": b.dropTable},
    {"name": "ifExists", "symbols": [(lexer.has("IF") ? {type: "IF"} : IF), (lexer.has("EXISTS") ? {type: "EXISTS"} : EXISTS)], "postprocess": b.first},
    {"name": "createView$ebnf$1", "symbols": ["ifNotExists"], "postprocess": id},
    {"name": "createView$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "createView$ebnf$2", "symbols": ["timeToLive"], "postprocess": id},
    {"name": "createView$ebnf$2", "symbols": [], "postprocess": () => null},
    {"name": "createView", "symbols": [(lexer.has("CREATE") ? {type: "CREATE"} : CREATE), (lexer.has("MATERIALIZED_WORD") ? {type: "MATERIALIZED_WORD"} : MATERIALIZED_WORD), (lexer.has("VIEW_WORD") ? {type: "VIEW_WORD"} : VIEW_WORD), "createView$ebnf$1", "name", "createView$ebnf$2", (lexer.has("AS") ? {type: "AS"} : AS), "select"], "postprocess": b.createView},
    {"name": "dropView$ebnf$1", "symbols": ["ifExists"], "postprocess": id},
    {"name": "dropView$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "dropView", "symbols": [(lexer.has("DROP") ? {type: "DROP"} : DROP), (lexer.has("MATERIALIZED_WORD") ? {type: "MATERIALIZED_WORD"} : MATERIALIZED_WORD), (lexer.has("VIEW_WORD") ? {type: "VIEW_WORD"} : VIEW_WORD), "dropView$ebnf$1", "name"], "postprocess": b.dropView},
    {"name": "alterTable", "symbols": [(lexer.has("ALTER_WORD") ? {type: "ALTER_WORD"} : ALTER_WORD), (lexer.has("TABLE") ? {type: "TABLE"} : TABLE), "name", "addedColumns"], "postprocess": b.alterTable},
    {"name": "alterTable", "symbols": [(lexer.has("ALTER_WORD") ? {type: "ALTER_WORD"} : ALTER_WORD), (lexer.has("TABLE") ? {type: "TABLE"} : TABLE), "name", (lexer.has("SET_WORD") ? {type: "SET_WORD"} : SET_WORD), "timeToLive"], "postprocess": b.setTtl},
    {"name": "alterTable", "symbols": [(lexer.has("ALTER_WORD") ? {type: "ALTER_WORD"} : ALTER_WORD), (lexer.has("TABLE") ? {type: "TABLE"} : TABLE), "name", (lexer.has("DROP") ? {type: "DROP"} : DROP), (lexer.has("TTL_WORD") ? {type: "TTL_WORD"} : TTL_WORD)], "postprocess": b.dropTtl},
    {"name": "addedColumns", "symbols": [(lexer.has("ADD_WORD") ? {type: "ADD_WORD"} : ADD_WORD), "addedColumn"], "postprocess": b.addFirst},
    {"name": "addedColumns$ebnf$1", "symbols": [(lexer.has("ADD_WORD") ? {type: "ADD_WORD"} : ADD_WORD)], "postprocess": id},
    {"name": "addedColumns$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "addedColumns", "symbols": ["addedColumns", {"literal":","}, "addedColumns$ebnf$1", "addedColumn"], "postprocess": b.addNext},
    {"name": "addedColumn$ebnf$1", "symbols": [(lexer.has("COLUMN_WORD") ? {type: "COLUMN_WORD"} : COLUMN_WORD)], "postprocess": id},
    {"name": "addedColumn$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "addedColumn", "symbols": ["addedColumn$ebnf$1", "columnDefinition"], "postprocess": b.second},
    {"name": "deleteRows$ebnf$1", "symbols": ["whereClause"], "postprocess": id},
    {"name": "deleteRows$ebnf$1", "symbols": [], "postprocess": () => null},
    {"name": "deleteRows", "symbols": [(lexer.has("DELETE_WORD") ? {type: "DELETE_WORD"} : DELETE_WORD), (lexer.has("FROM") ? {type: "FROM"} : FROM), "sourceList", "inClause", "deleteRows$ebnf$1"], "postprocess": b.deleteRows},
    {"name": "insert", "symbols": [(lexer.has("INSERT") ? {type: "INSERT"} : INSERT), (lexer.has("INTO") ? {type: "INTO"} : INTO), "name", {"literal":"("}, "nameList", {"literal":")"}, (lexer.has("VALUES") ? {type: "VALUES"} : VALUES), "rowList"], "postprocess": b.insert},
    {"name": "rowList", "symbols": ["row"], "postprocess": b.list},
    {"name": "rowList", "symbols": ["rowList", {"literal":","}, "row"], "postprocess": b.append},
    {"name": "row", "symbols": [{"literal":"("}, "valueList", {"literal":")"}], "postprocess": b.row},
    {"name": "valueList", "symbols": ["value"], "postprocess": b.list},
    {"name": "valueList", "symbols": ["valueList", {"literal":","}, "value"], "postprocess": b.append},
    {"name": "value", "symbols": [(lexer.has("number") ? {type: "number"} : number)], "postprocess": b.number},
    {"name": "value", "symbols": [{"literal":"-"}, (lexer.has("number") ? {type: "number"} : number)], "postprocess": b.negativeNumber},
    {"name": "value", "symbols": [{"literal":"+"}, (lexer.has("number") ? {type: "number"} : number)], "postprocess": b.positiveNumber},
    {"name": "value", "symbols": [(lexer.has("string") ? {type: "string"} : string)], "postprocess": b.string},
    {"name": "value", "symbols": [(lexer.has("NULL") ? {type: "NULL"} : NULL)], "postprocess": b.nullLiteral},
    {"name": "value", "symbols": ["boolean"], "postprocess": id},
    {"name": "value", "symbols": ["timeLiteral"], "postprocess": id},
    {"name": "show", "symbols": [(lexer.has("SHOW") ? {type: "SHOW"} : SHOW), "name"], "postprocess": b.show},
    {"name": "expr", "symbols": ["orExpr"], "postprocess": id},
    {"name": "orExpr", "symbols": ["orExpr", (lexer.has("OR") ? {type: "OR"} : OR), "andExpr"], "postprocess": b.logical},
    {"name": "orExpr", "symbols": ["andExpr"], "postprocess": id},
    {"name": "andExpr", "symbols": ["andExpr", (lexer.has("AND") ? {type: "AND"} : AND), "notExpr"], "postprocess": b.logical},
    {"name": "andExpr", "symbols": ["notExpr"], "postprocess": id},
    {"name": "notExpr", "symbols": [(lexer.has("NOT") ? {type: "NOT"} : NOT), "notExpr"], "postprocess": b.unary},
    {"name": "notExpr", "symbols": ["comparison"], "postprocess": id},
    {"name": "comparison", "symbols": ["additive", "compareOp", "additive"], "postprocess": b.binary},
    {"name": "comparison", "symbols": ["additive", (lexer.has("IN") ? {type: "IN"} : IN), {"literal":"("}, "argList", {"literal":")"}], "postprocess": b.inList},
    {"name": "comparison", "symbols": ["additive", (lexer.has("NOT") ? {type: "NOT"} : NOT), (lexer.has("IN") ? {type: "IN"} : IN), {"literal":"("}, "argList", {"literal":")"}], "postprocess": b.notInList},
    {"name": "comparison", "symbols": ["additive"], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":"="}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":"!="}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":"<"}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":"<="}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":">"}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":">="}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":"~"}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":"!~"}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":"~*"}], "postprocess": id},
    {"name": "compareOp", "symbols": [{"literal":"!~*"}], "postprocess": id},
    {"name": "additive", "symbols": ["additive", {"literal":"+"}, "multiplicative"], "postprocess": b.binary},
    {"name": "additive", "symbols": ["additive", {"literal":"-"}, "multiplicative"], "postprocess": b.binary},
    {"name": "additive", "symbols": ["multiplicative"], "postprocess": id},
    {"name": "multiplicative", "symbols": ["multiplicative", {"literal":"*"}, "unary"], "postprocess": b.binary},
    {"name": "multiplicative", "symbols": ["multiplicative", {"literal":"/"}, "unary"], "postprocess": b.binary},
    {"name": "multiplicative", "symbols": ["unary"], "postprocess": id},
    {"name": "unary", "symbols": [{"literal":"-"}, "unary"], "postprocess": b.negate},
    {"name": "unary", "symbols": ["primary"], "postprocess": id},
    {"name": "primary", "symbols": [(lexer.has("number") ? {type: "number"} : number)], "postprocess": b.number},
    {"name": "primary", "symbols": [(lexer.has("string") ? {type: "string"} : string)], "postprocess": b.string},
    {"name": "primary", "symbols": [(lexer.has("NULL") ? {type: "NULL"} : NULL)], "postprocess": b.nullLiteral},
    {"name": "primary", "symbols": ["boolean"], "postprocess": id},
    {"name": "primary", "symbols": ["timeLiteral"], "postprocess": id},
    {"name": "primary", "symbols": [(lexer.has("duration") ? {type: "duration"} : duration)], "postprocess": b.duration},
    {"name": "primary", "symbols": ["name"], "postprocess": b.column},
    {"name": "primary", "symbols": ["call"], "postprocess": id},
    {"name": "primary", "symbols": [{"literal":"("}, "expr", {"literal":")"}], "postprocess": b.second},
    {"name": "call", "symbols": [(lexer.has("ident") ? {type: "ident"} : ident), {"literal":"("}, {"literal":")"}], "postprocess": b.call},
    {"name": "call", "symbols": [(lexer.has("ident") ? {type: "ident"} : ident), {"literal":"("}, {"literal":"*"}, {"literal":")"}], "postprocess": b.callStar},
    {"name": "call", "symbols": [(lexer.has("ident") ? {type: "ident"} : ident), {"literal":"("}, "argList", {"literal":")"}], "postprocess": b.call},
    {"name": "argList", "symbols": ["expr"], "postprocess": b.list},
    {"name": "argList", "symbols": ["argList", {"literal":","}, "expr"], "postprocess": b.append},
    {"name": "range", "symbols": [(lexer.has("RANGE") ? {type: "RANGE"} : RANGE), {"literal":"("}, "timePoint", {"literal":","}, "rangeEnd", {"literal":")"}], "postprocess": b.range},
    {"name": "rangeEnd", "symbols": ["timePoint"], "postprocess": id},
    {"name": "rangeEnd", "symbols": ["signedDuration"], "postprocess": id},
    {"name": "timePoint", "symbols": ["timeLiteral"], "postprocess": id},
    {"name": "timePoint", "symbols": [(lexer.has("number") ? {type: "number"} : number)], "postprocess": b.year},
    {"name": "timeLiteral", "symbols": [(lexer.has("datetime") ? {type: "datetime"} : datetime)], "postprocess": b.absoluteTime},
    {"name": "timeLiteral", "symbols": ["timeWord"], "postprocess": id},
    {"name": "timeLiteral", "symbols": ["timeWord", {"literal":"("}, {"literal":")"}], "postprocess": id},
    {"name": "timeWord", "symbols": [(lexer.has("NOW") ? {type: "NOW"} : NOW)], "postprocess": b.timeWord},
    {"name": "timeWord", "symbols": [(lexer.has("TODAY") ? {type: "TODAY"} : TODAY)], "postprocess": b.timeWord},
    {"name": "timeWord", "symbols": [(lexer.has("YESTERDAY") ? {type: "YESTERDAY"} : YESTERDAY)], "postprocess": b.timeWord},
    {"name": "timeWord", "symbols": [(lexer.has("TOMORROW") ? {type: "TOMORROW"} : TOMORROW)], "postprocess": b.timeWord},
    {"name": "timeWord", "symbols": [(lexer.has("EPOCH") ? {type: "EPOCH"} : EPOCH)], "postprocess": b.timeWord},
    {"name": "timeWord", "symbols": [(lexer.has("END_OF_TIME") ? {type: "END_OF_TIME"} : END_OF_TIME)], "postprocess": b.timeWord},
    {"name": "signedDuration", "symbols": ["duration"], "postprocess": id},
    {"name": "signedDuration", "symbols": [{"literal":"+"}, "duration"], "postprocess": b.positiveDuration},
    {"name": "signedDuration", "symbols": [{"literal":"-"}, "duration"], "postprocess": b.negateDuration},
    {"name": "duration", "symbols": [(lexer.has("duration") ? {type: "duration"} : duration)], "postprocess": b.duration},
    {"name": "duration", "symbols": [(lexer.has("UNIT_WORD") ? {type: "UNIT_WORD"} : UNIT_WORD)], "postprocess": b.unitDuration},
    {"name": "name", "symbols": [(lexer.has("ident") ? {type: "ident"} : ident)], "postprocess": id},
    {"name": "name", "symbols": [(lexer.has("qident") ? {type: "qident"} : qident)], "postprocess": id},
    {"name": "nameList", "symbols": ["name"], "postprocess": b.list},
    {"name": "nameList", "symbols": ["nameList", {"literal":","}, "name"], "postprocess": b.append},
    {"name": "boolean", "symbols": [(lexer.has("TRUE") ? {type: "TRUE"} : TRUE)], "postprocess": b.booleanLiteral},
    {"name": "boolean", "symbols": [(lexer.has("FALSE") ? {type: "FALSE"} : FALSE)], "postprocess": b.booleanLiteral}
  ],
  ParserStart: "query",
};

export default grammar;
