# INSERT INTO name (columns) VALUES (values), (values)...

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# The statement.
insert -> %INSERT %INTO name "(" nameList ")" %VALUES rowList {% b.insert %}

# Rows separated by commas.
rowList -> row                     {% b.list %}
         | rowList "," row         {% b.append %}

# One row: values in parentheses.
row -> "(" valueList ")"           {% b.row %}

# Values separated by commas.
valueList -> value                 {% b.list %}
           | valueList "," value   {% b.append %}

# A value: a (signed) number, a string, NULL or a time point such as `now`.
value -> %number                   {% b.number %}
       | "-" %number               {% b.negativeNumber %}
       | "+" %number               {% b.positiveNumber %}
       | %string                   {% b.string %}
       | %NULL                     {% b.nullLiteral %}
       | boolean                   {% id %}
       | timeLiteral               {% id %}
