# CREATE TABLE [IF NOT EXISTS] name (columns) [SHARD_SIZE [=] duration] [WITH TAGS=[tag, …]] [TTL duration]
# (QuasarDB's synopsis, SPEC §6; its documentation writes the tag list `WITH TAGS='[' tag, … ']'`,
# so the list may also come as one string, `WITH TAGS='[ops, prod]'`).

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# The statement.
createTable -> %CREATE %TABLE ifNotExists:? name "(" columnDefinitions ")" shardSize:? withTags:? timeToLive:? {% b.createTable %}

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

# WITH TAGS = [tag, …] or WITH TAGS = '[tag, …]': tags attached to the table as it is created.
withTags -> %WITH_WORD %TAGS_WORD "=" "[" tagList "]"   {% b.tagList %}
          | %WITH_WORD %TAGS_WORD "=" %string           {% b.tagListText %}

# Tag names (plain, double-quoted or single-quoted) separated by commas.
tagList -> tagName                 {% b.list %}
         | tagList "," tagName     {% b.append %}

tagName -> name                    {% id %}
         | %string                 {% id %}

# TTL [=] duration: rows older than now − duration are gone.
timeToLive -> %TTL_WORD duration       {% b.second %}
            | %TTL_WORD "=" duration   {% b.third %}
