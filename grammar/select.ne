# SELECT: the query statement (SPEC §6). Clauses come in a fixed order, each optional after FROM.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# SELECT list FROM sources, then the optional clauses in order.
select -> %SELECT selectList %FROM sourceList inClause:? whereClause:? groupByClause:? havingClause:? orderByClause:? limitClause:? offsetClause:? {% b.select %}

# The select list: one or more items separated by commas.
selectList -> selectItem                   {% b.list %}
            | selectList "," selectItem    {% b.append %}

# An item: all columns, or an expression with an optional AS name.
selectItem -> "*"                  {% b.star %}
            | expr                 {% b.selectColumn %}
            | expr %AS name        {% b.selectColumnAs %}

# FROM: tables and FIND(...) results, separated by commas.
sourceList -> source               {% b.list %}
            | sourceList "," source {% b.append %}

# One source: a table name or the tables a FIND returns.
source -> name                     {% b.tableRef %}
        | find                     {% id %}

# IN: one RANGE or a bracketed list of them.
inClause -> %IN range              {% b.singleRange %}
          | %IN "[" rangeList "]"  {% b.third %}

# Ranges inside IN [...].
rangeList -> range                 {% b.list %}
           | rangeList "," range   {% b.append %}

# WHERE: a condition on each row.
whereClause -> %WHERE expr         {% b.second %}

# GROUP BY: buckets, columns and $table.
groupByClause -> %GROUP %BY groupList {% b.third %}

# Group items separated by commas.
groupList -> groupItem             {% b.list %}
           | groupList "," groupItem {% b.append %}

# A group item: a duration, a bare unit (`day`) or a column; build.ts tells a unit from a column.
groupItem -> %duration             {% b.duration %}
           | %ident                {% b.groupName %}
           | %qident               {% b.column %}

# HAVING: a condition on each group.
havingClause -> %HAVING expr       {% b.second %}

# ORDER BY: sort keys separated by commas.
orderByClause -> %ORDER %BY orderList {% b.third %}

# Sort keys.
orderList -> orderItem             {% b.list %}
           | orderList "," orderItem {% b.append %}

# A sort key, ascending unless DESC.
orderItem -> expr                  {% b.orderItem %}
           | expr %ASC             {% b.orderItem %}
           | expr %DESC            {% b.orderItem %}

# LIMIT n.
limitClause -> %LIMIT %number      {% b.count %}

# OFFSET n.
offsetClause -> %OFFSET %number    {% b.count %}
