# Expressions, as a precedence ladder from loosest to tightest:
# OR < AND < NOT < comparison/regex/IN < + - < * / < unary minus < primary.
# Each level is left-associative except comparisons, which do not chain (`a < b < c` is an error).
# AND and OR build one chain node per run of the same operator (build.ts `logical`).

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# An expression.
expr -> orExpr                     {% id %}

# a OR b.
orExpr -> orExpr %OR andExpr       {% b.logical %}
        | andExpr                  {% id %}

# a AND b.
andExpr -> andExpr %AND notExpr    {% b.logical %}
         | notExpr                 {% id %}

# NOT a.
notExpr -> %NOT notExpr            {% b.unary %}
         | comparison              {% id %}

# a = b, a ~ 'regex', a [NOT] IN (v, …) (one comparison at most).
comparison -> additive compareOp additive {% b.binary %}
            | additive %IN "(" argList ")"        {% b.inList %}
            | additive %NOT %IN "(" argList ")"   {% b.notInList %}
            | additive             {% id %}

# Comparison and regex operators (~* and !~* ignore case).
compareOp -> "="  {% id %} | "!=" {% id %} | "<" {% id %} | "<=" {% id %} | ">" {% id %} | ">=" {% id %}
           | "~"  {% id %} | "!~" {% id %} | "~*" {% id %} | "!~*" {% id %}

# a + b, a - b.
additive -> additive "+" multiplicative {% b.binary %}
          | additive "-" multiplicative {% b.binary %}
          | multiplicative         {% id %}

# a * b, a / b.
multiplicative -> multiplicative "*" unary {% b.binary %}
                | multiplicative "/" unary {% b.binary %}
                | unary            {% id %}

# -a (folded into a number literal when a is one).
unary -> "-" unary                 {% b.negate %}
       | primary                   {% id %}

# Operands: literals, time points, durations, columns, calls and parentheses.
primary -> %number                 {% b.number %}
         | %string                 {% b.string %}
         | %NULL                   {% b.nullLiteral %}
         | boolean                 {% id %}
         | timeLiteral             {% id %}
         | %duration               {% b.duration %}
         | name                    {% b.column %}
         | call                    {% id %}
         | "(" expr ")"            {% b.second %}

# f(), f(*), f(a, b): aggregates such as sum(close) and count(*).
call -> %ident "(" ")"             {% b.call %}
      | %ident "(" "*" ")"         {% b.callStar %}
      | %ident "(" argList ")"     {% b.call %}

# Arguments separated by commas.
argList -> expr                    {% b.list %}
         | argList "," expr        {% b.append %}
