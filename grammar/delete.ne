# DELETE FROM sources IN ranges [WITH … IN …] [WHERE condition | WHERE DUPLICATE[(cols)]]
# (QuasarDB's DELETE, SPEC §6): the rows of each table inside the ranges that match. The range is
# required, so a DELETE never empties a table by a forgotten clause. `DUPLICATE` is told apart
# from an ordinary condition by build.ts (it reads as a column or a call there), so no word of
# the language is reserved for it.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# The statement: the sources and IN clause are those of SELECT.
deleteRows -> %DELETE_WORD %FROM sourceList inClause whereClause:?   {% b.deleteRows %}
