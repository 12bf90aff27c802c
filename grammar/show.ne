# SHOW name: the columns and types of a table.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# The statement.
show -> %SHOW name                 {% b.show %}
