# Time points, durations and ranges.

# nearleyc compiles each @include on its own, so every file names the lexer.
@lexer lexer

# RANGE(start, end): end is a time point or an offset from start (+1d, -1s, 1h30min, day).
range -> %RANGE "(" timePoint "," rangeEnd ")" {% b.range %}

# The end of a range.
rangeEnd -> timePoint              {% id %}
          | signedDuration         {% id %}

# A time point where one is required: there a bare integer is a year (`2017`).
timePoint -> timeLiteral           {% id %}
           | %number               {% b.year %}

# A time point that cannot be read as a number; also an operand of expressions and a value.
timeLiteral -> %datetime           {% b.absoluteTime %}
             | timeWord            {% id %}
             | timeWord "(" ")"    {% id %}

# The named time points; now/today/yesterday/tomorrow are resolved when the query runs.
timeWord -> %NOW                   {% b.timeWord %}
          | %TODAY                 {% b.timeWord %}
          | %YESTERDAY             {% b.timeWord %}
          | %TOMORROW              {% b.timeWord %}
          | %EPOCH                 {% b.timeWord %}
          | %END_OF_TIME           {% b.timeWord %}

# A duration with an optional sign.
signedDuration -> duration         {% id %}
                | "+" duration     {% b.positiveDuration %}
                | "-" duration     {% b.negateDuration %}

# A duration: `1h30min`, or a bare unit meaning one of it (`day`).
duration -> %duration              {% b.duration %}
          | %UNIT_WORD             {% b.unitDuration %}
