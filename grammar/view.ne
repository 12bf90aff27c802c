# CREATE MATERIALIZED VIEW [IF NOT EXISTS] name [TTL [=] duration] AS select, and
# DROP MATERIALIZED VIEW [IF EXISTS] name (svc's rollups, SPEC §15): a view keeps the rows one
# SELECT … GROUP BY duration answers over its source table. MATERIALIZED and VIEW are contextual
# words, so tables and columns named `view` keep working; the SELECT is the ordinary one, whose
# shape the planner checks (one source table, GROUP BY duration first, aggregate items).

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# CREATE: the view's name, its own time to live, and the SELECT it keeps.
createView -> %CREATE %MATERIALIZED_WORD %VIEW_WORD ifNotExists:? name timeToLive:? %AS select   {% b.createView %}

# DROP: the view and its rows go; its source table is untouched.
dropView -> %DROP %MATERIALIZED_WORD %VIEW_WORD ifExists:? name                                   {% b.dropView %}
