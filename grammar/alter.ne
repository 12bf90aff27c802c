# ALTER TABLE name ADD [COLUMN] c TYPE [, [ADD] [COLUMN] c TYPE …]: the table's schema grows;
# rows already there read the new columns as null. ALTER, ADD and COLUMN are contextual words, so
# columns named like them need no quotes.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# The statement.
alterTable -> %ALTER_WORD %TABLE name addedColumns  {% b.alterTable %}

# One or more added columns separated by commas; ADD and COLUMN may be repeated or left out
# after the first (ADD COLUMN a INT64, b DOUBLE; ADD COLUMN a INT64, ADD COLUMN b DOUBLE).
addedColumns -> %ADD_WORD addedColumn                      {% b.addFirst %}
              | addedColumns "," %ADD_WORD:? addedColumn   {% b.addNext %}

# [COLUMN] name TYPE.
addedColumn -> %COLUMN_WORD:? columnDefinition  {% b.second %}
