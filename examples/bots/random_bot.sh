#!/bin/sh
# A complete random bot for the virus_envs bot protocol, version 1 (docs/bots.md), in POSIX sh + awk.
#
#     virus-arena tournament --game virus_cards_v0 --agents heuristic "cmd:sh examples/bots/random_bot.sh"
#
# It answers each hello with a ready and each decision with one of the legal ids, drawn with awk's
# rand() seeded from the hello's seed (so its games are reproducible). It reads the fields it needs
# with patterns, not a JSON parser: enough for `type`, `seed` and the list `legal` (the runner writes
# `legal` before `view`, whose contents it never looks at). mawk needs -W interactive to answer each
# line as it comes; gawk and busybox awk do that anyway.
if awk -W version 2>/dev/null | grep -q mawk; then set -- -W interactive; else set --; fi
exec awk "$@" '
function field(name,    re, s) {          # the digits of "name": 123 (first occurrence)
    re = "\"" name "\"[ \t]*:[ \t]*-?[0-9]+"
    if (!match($0, re)) return ""
    s = substr($0, RSTART, RLENGTH); sub(/^[^:]*:[ \t]*/, "", s); return s
}
/"type"[ \t]*:[ \t]*"hello"/ {
    seed = field("seed"); if (seed == "") seed = 0
    srand(seed % 2147483647)
    printf "{\"type\":\"ready\",\"name\":\"random_bot.sh\"}\n"; fflush()
    next
}
/"type"[ \t]*:[ \t]*"decision"/ {
    if (!match($0, /"legal"[ \t]*:[ \t]*\[[^]]*\]/)) { print "no legal list" > "/dev/stderr"; exit 1 }
    s = substr($0, RSTART, RLENGTH); sub(/^[^[]*\[/, "", s); sub(/\].*$/, "", s)
    n = split(s, ids, /[ \t]*,[ \t]*/)
    k = int(rand() * n) + 1; if (k > n) k = n
    printf "{\"action\":%d}\n", ids[k]; fflush()
    next
}
/"type"[ \t]*:[ \t]*"quit"/ { exit 0 }
'
