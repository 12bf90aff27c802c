# ALTER TABLE name ADD [COLUMN] c TYPE [, [ADD] [COLUMN] c TYPE …]: the table's schema grows;
# rows already there read the new columns as null. ALTER TABLE name SET TTL duration | DROP TTL
# (svc's extension): the table's time to live. ALTER, ADD, COLUMN, SET and TTL are contextual
# words, so columns named like them need no quotes.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# The statements.
alterTable -> %ALTER_WORD %TABLE name addedColumns                     {% b.alterTable %}
            | %ALTER_WORD %TABLE name %SET_WORD timeToLive             {% b.setTtl %}
            | %ALTER_WORD %TABLE name %DROP %TTL_WORD                  {% b.dropTtl %}

# One or more added columns separated by commas; ADD and COLUMN may be repeated or left out
# after the first (ADD COLUMN a INT64, b DOUBLE; ADD COLUMN a INT64, ADD COLUMN b DOUBLE).
addedColumns -> %ADD_WORD addedColumn                      {% b.addFirst %}
              | addedColumns "," %ADD_WORD:? addedColumn   {% b.addNext %}

# [COLUMN] name TYPE.
addedColumn -> %COLUMN_WORD:? columnDefinition  {% b.second %}
