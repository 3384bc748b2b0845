#!/bin/sh
# A player program for `arena` that reads and never answers.
while read -r word rest; do
  case "$word" in
    quit) exit 0 ;;
  esac
done
