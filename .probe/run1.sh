#!/usr/bin/env bash
# usage: run1.sh <jest args...>; prints wall, jest CPU, JVM CPU
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
start=$(date +%s.%N)
/usr/bin/time -f "TIME total-cpu user %U sys %S wall %e" npx jest "$@" > .probe/last.out 2>&1 &
tp=$!
jv=0; declare -A seen
while kill -0 $tp 2>/dev/null; do
  for p in $(pgrep -f "wt-suite/.dynamodb-local/DynamoDBLocal.jar"); do
    if [ -r /proc/$p/stat ]; then
      t=$(awk '{print $14+$15}' /proc/$p/stat 2>/dev/null); [ -n "$t" ] && seen[$p]=$t
    fi
  done
  sleep 0.5
done
tot=0; for p in "${!seen[@]}"; do tot=$((tot + ${seen[$p]})); done
grep -E "PASS|FAIL|Tests:|Time:|TIME|✓|✕" .probe/last.out | grep -v "npm warn"
echo "JVM cpu (sampled, s): $(echo "$tot/100" | bc -l | cut -c1-6)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
