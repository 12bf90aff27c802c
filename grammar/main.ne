# The query language of svc (SPEC §6): the entry point of the grammar. Each statement lives in its
# own file; tokens come from lexer.ts (keywords as %KEYWORD, contextual words as %..._WORD
# testers, punctuation as "x"). Postprocessors are one-line calls into build.ts.
@preprocessor typescript

@{%
import {
  lexer, TAG_WORD, TYPE_WORD, ENTRY_TYPE, COLUMN_TYPE, SYMBOL_WORD, SHARD_SIZE_WORD, UNIT_WORD, ALTER_WORD, ADD_WORD, COLUMN_WORD,
  ASOF_WORD, JOIN_WORD, JOIN_KIND, WITH_WORD, MONTHS_WORD, DAYS_WORD, TIME_WORD, FILL_WORD, FILL_MODE,
  TAGS_WORD, TTL_WORD, SET_WORD, DELETE_WORD, MATERIALIZED_WORD, VIEW_WORD,
} from './lexer.js';
import * as b from './build.js';
%}

@lexer lexer

# A query is one statement, optionally ended by a semicolon.
query -> statement                 {% id %}
       | statement ";"             {% id %}

# The statements, one file each.
statement -> select                {% id %}
           | find                  {% id %}
           | createTable           {% id %}
           | dropTable             {% id %}
           | createView            {% id %}
           | dropView              {% id %}
           | alterTable            {% id %}
           | deleteRows            {% id %}
           | insert                {% id %}
           | show                  {% id %}

@include "select.ne"
@include "find.ne"
@include "create.ne"
@include "drop.ne"
@include "view.ne"
@include "alter.ne"
@include "delete.ne"
@include "insert.ne"
@include "show.ne"
@include "expr.ne"
@include "time.ne"
@include "common.ne"
