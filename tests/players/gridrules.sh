#!/bin/sh
# A player program for `arena`: another build of gridrules (the one named by
# $GRIDRULES, else `gridrules` on the PATH) playing at $LEVEL (hard unless
# told), so a match measures one build against another:
#   GRIDRULES=/tmp/old/gridrules gridrules arena gomoku hard tests/players/gridrules.sh
# $AI_TIME (seconds) makes it think by the clock (`ai time`).
bin=${GRIDRULES:-gridrules}
level=${LEVEL:-hard}
while read -r word rest; do
  case "$word" in
    rules) rules=$rest ;;
    position) position=$rest ;;
    go)
      # `ai time` only sets the clock; `ai <level>` then moves.
      clock=${AI_TIME:+ai time $AI_TIME}
      printf 'setup %s\n%s\nai %s\n' "$position" "${clock:-ai time default}" "$level" |
        "$bin" --batch --rules "$rules" |
        sed -n 's/^[XO] plays \([^ ]*\).*/\1/p' | head -n 1
      ;;
    quit) exit 0 ;;
  esac
done
