# SELECT: the query statement (SPEC §6). Clauses come in a fixed order, each optional after FROM.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# SELECT list FROM sources, then the optional clauses in order.
select -> %SELECT selectList %FROM sourceList joinClause:? inClause:? whereClause:? groupByClause:? havingClause:? orderByClause:? limitClause:? offsetClause:? {% b.select %}

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

# [LEFT | RIGHT | FULL] ASOF JOIN: the sources each FROM source is joined with, as of its times.
joinClause -> %JOIN_KIND:? %ASOF_WORD %JOIN_WORD sourceList {% b.asofJoin %}

# IN: one RANGE or a bracketed list of them, then calendar filters in a fixed order.
inClause -> %IN range monthsFilter:? daysFilter:? timeFilter:?              {% b.inRange %}
          | %IN "[" rangeList "]" monthsFilter:? daysFilter:? timeFilter:?  {% b.inRangeList %}

# WITH MONTHS IN (m1, m2): months 1-12, from m1 up to (not including) m2.
monthsFilter -> %WITH_WORD %MONTHS_WORD %IN "(" integer "," integer ")"   {% b.calendarFilter %}

# WITH DAYS IN (d1, d2): ISO weekdays, 1 = Monday to 7 = Sunday.
daysFilter -> %WITH_WORD %DAYS_WORD %IN "(" integer "," integer ")"       {% b.calendarFilter %}

# WITH TIME IN (t1, t2): times of day, hh:mm[:ss].
timeFilter -> %WITH_WORD %TIME_WORD %IN "(" timeOfDay "," timeOfDay ")"   {% b.calendarFilter %}

# A number where an integer is expected (the planner checks it is whole).
integer -> %number                 {% b.number %}

# A time of day.
timeOfDay -> %timeOfDay            {% b.timeOfDay %}

# Ranges inside IN [...].
rangeList -> range                 {% b.list %}
           | rangeList "," range   {% b.append %}

# WHERE: a condition on each row.
whereClause -> %WHERE expr         {% b.second %}

# GROUP BY: buckets, columns and $table, then FILL for the empty buckets.
groupByClause -> %GROUP %BY groupList fillClause:? {% b.groupBy %}

# FILL(NULL | PREV | LINEAR | number).
fillClause -> %FILL_WORD "(" %NULL ")"        {% b.fillMode %}
            | %FILL_WORD "(" %FILL_MODE ")"   {% b.fillMode %}
            | %FILL_WORD "(" signedNumber ")" {% b.fillValue %}

# A number with an optional minus sign.
signedNumber -> %number            {% b.number %}
              | "-" %number        {% b.negativeNumber %}

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
