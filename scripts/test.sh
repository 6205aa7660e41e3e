#!/usr/bin/env bash
# `npm test`: the checks (type checks, layer rules, biome: `npm run checks`) and jest, side by
# side. Jest's files leave a core idle whenever both running files wait (on DynamoDB Local,
# a child process, a browser); the checks run at the lowest CPU priority and so mostly fill
# those gaps instead of delaying jest. Their output is held back and printed when they end,
# so it never interleaves with jest's. The exit status is jest's, or the checks' when jest
# passed. Arguments go to jest.
set -u
checks_log=$(mktemp "${TMPDIR:-/tmp}/feedback-checks.XXXXXX")
trap 'rm -f "$checks_log"' EXIT
nice -n 19 npm run -s checks >"$checks_log" 2>&1 &
checks=$!
npx jest "$@"
tests=$?
wait "$checks"
checked=$?
cat "$checks_log"
if [ "$checked" -ne 0 ]; then
  echo "npm test: the checks failed (npm run checks: type checks, layer rules, biome); their output is above." >&2
fi
if [ "$tests" -ne 0 ]; then exit "$tests"; fi
exit "$checked"
