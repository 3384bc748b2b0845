#!/bin/sh
# A player program for `arena` that comments forever and never answers.
while read -r word rest; do
  case "$word" in
    go) while :; do echo "# still thinking"; done ;;
  esac
done
