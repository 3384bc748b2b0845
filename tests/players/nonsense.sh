#!/bin/sh
# A player program for `arena` that answers a move no board has.
while read -r word rest; do
  case "$word" in
    go) echo "zz99" ;;
    quit) exit 0 ;;
  esac
done
