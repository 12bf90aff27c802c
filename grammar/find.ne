# FIND(...): entries by tag and type, a statement of its own or a source of SELECT.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# FIND( conditions joined by AND ).
find -> %FIND "(" findConditions ")" {% b.find %}

# Conditions joined by AND.
findConditions -> findCondition                        {% b.list %}
                | findConditions %AND findCondition    {% b.append %}

# tag='t', NOT tag='t' or type=blob|tag|ts.
findCondition -> %TAG_WORD "=" %string          {% b.findTag %}
               | %NOT %TAG_WORD "=" %string     {% b.findNotTag %}
               | %TYPE_WORD "=" %ENTRY_TYPE     {% b.findType %}
