#!/bin/sh
# A player program for `arena`: plays the first legal move it is offered.
while read -r word rest; do
  case "$word" in
    legal) first=${rest%% *} ;;
    go) echo "# thinking"; echo "$first" ;;
    quit) exit 0 ;;
  esac
done
