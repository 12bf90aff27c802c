# Small rules shared by the statements: names.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# A name: plain (letters, digits, _ $ .) or double-quoted (any text, "" for a quote).
name -> %ident                     {% id %}
      | %qident                    {% id %}

# Comma-separated names, e.g. the column list of INSERT.
nameList -> name                   {% b.list %}
          | nameList "," name      {% b.append %}

# TRUE or FALSE (reserved words: a column named so must be double-quoted).
boolean -> %TRUE                   {% b.booleanLiteral %}
         | %FALSE                  {% b.booleanLiteral %}
