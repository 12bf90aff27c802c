# DROP TABLE [IF EXISTS] name.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# The statement.
dropTable -> %DROP %TABLE ifExists:? name  {% b.dropTable %}

# IF EXISTS: dropping a missing table is then not an error.
ifExists -> %IF %EXISTS            {% b.first %}
