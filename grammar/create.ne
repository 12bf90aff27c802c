# CREATE TABLE [IF NOT EXISTS] name (columns) [SHARD_SIZE [=] duration].

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# The statement.
createTable -> %CREATE %TABLE ifNotExists:? name "(" columnDefinitions ")" shardSize:? {% b.createTable %}

# IF NOT EXISTS: creating an existing table is then not an error.
ifNotExists -> %IF %NOT %EXISTS    {% b.first %}

# Column definitions separated by commas (a leading `$timestamp TIMESTAMP` is allowed).
columnDefinitions -> columnDefinition                         {% b.list %}
                   | columnDefinitions "," columnDefinition   {% b.append %}

# name TYPE.
columnDefinition -> name columnType {% b.columnDefinition %}

# A type word; SYMBOL may name its symbol table, which is ignored.
columnType -> %COLUMN_TYPE                 {% id %}
            | %SYMBOL_WORD "(" name ")"    {% id %}

# SHARD_SIZE [=] duration: how much time one shard of the table covers.
shardSize -> %SHARD_SIZE_WORD duration      {% b.second %}
           | %SHARD_SIZE_WORD "=" duration  {% b.third %}
