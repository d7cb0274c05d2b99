#!/usr/bin/env bash
# What pre-issuance validation costs `pkit issue batch`: two binaries (one built before
# the check existed, one after) issue the same batch from the same constrained
# intermediate, alternating, ROUNDS times; prints each run's wall time, CPU time (user +
# system, which other work on the machine disturbs less than wall time) and user-space
# instruction count, and the medians' ratios. Instructions come from `perf stat` where
# the machine lets perf count, else from valgrind's callgrind on a batch of
# CALLGRIND_COUNT (default 300) certificates per binary, once each (it is deterministic
# to a fraction of a percent, and 50 times slower).
#
#   scripts/preissue-cost.sh OLD_PKIT NEW_PKIT [COUNT=20000] [ROUNDS=5]
#
# The CA is made once by NEW (an intermediate with name constraints under a root, so
# every certificate is checked against them); each run gets a fresh copy of it (an
# empty ca.db) and a fresh output directory, so neither binary runs on the other's
# records. Signing is CPU-bound on every core; the check adds a path validation per
# certificate, bounded by the same CPU.
set -euo pipefail

old=${1:?usage: $0 OLD_PKIT NEW_PKIT [COUNT] [ROUNDS]}
new=${2:?usage: $0 OLD_PKIT NEW_PKIT [COUNT] [ROUNDS]}
count=${3:-20000}
rounds=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$new" issue ca --dir "$work/root" --subject "CN=Cost Root" --no-passout 2>/dev/null
"$new" issue ca --dir "$work/int" --subject "CN=Cost Issuing" --parent "$work/root" \
  --permit DNS:bench.internal --permit IP:10.0.0.0/8 --exclude DNS:secret.bench.internal \
  --no-passout 2>/dev/null

perf_ok=0
# Only where the machine lets perf count (a VM often answers "<not supported>").
if perf stat -x, -e instructions:u true 2>&1 >/dev/null | grep -Eq '^[0-9]+,'; then perf_ok=1; fi

# One run: "WALL_SECONDS CPU_SECONDS INSTRUCTIONS" (instructions 0 without perf).
run() {
  local bin=$1 ca="$work/run-ca" out="$work/out"
  rm -rf "$ca" "$out"
  cp -a "$work/int" "$ca"
  local start end ins=0 cpu
  start=$(date +%s.%N)
  if [ "$perf_ok" = 1 ]; then
    ins=$(perf stat -x, -e instructions:u -- /usr/bin/time -f 'cpu %U %S' -o "$work/cpu" \
      "$bin" issue batch --ca "$ca" --count "$count" \
      --subject-template 'CN=h{n}.bench.internal' --san-template 'DNS:h{n}.bench.internal' \
      --out-dir "$out" 2>&1 >/dev/null | awk -F, '/instructions/ {print $1}' | tail -1)
  else
    /usr/bin/time -f 'cpu %U %S' -o "$work/cpu" "$bin" issue batch --ca "$ca" --count "$count" \
      --subject-template 'CN=h{n}.bench.internal' --san-template 'DNS:h{n}.bench.internal' \
      --out-dir "$out" >/dev/null 2>&1
  fi
  end=$(date +%s.%N)
  cpu=$(awk '/^cpu/ {print $2 + $3}' "$work/cpu")
  echo "$(echo "$end - $start" | bc) $cpu ${ins:-0}"
}

# Instructions of one small batch under callgrind: the total it reports.
callgrind() {
  local bin=$1 ca="$work/cg-ca" out="$work/cg-out"
  rm -rf "$ca" "$out"
  cp -a "$work/int" "$ca"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" issue batch --ca "$ca" \
    --count "${CALLGRIND_COUNT:-300}" --subject-template 'CN=h{n}.bench.internal' \
    --san-template 'DNS:h{n}.bench.internal' --out-dir "$out" 2>&1 >/dev/null |
    awk '/Collected :/ {print $4}'
}

declare -a old_s old_c old_i new_s new_c new_i
for r in $(seq 1 "$rounds"); do
  # Alternate which goes first, so drift over the session falls on both.
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for which in $order; do
    if [ "$which" = old ]; then read -r s c i < <(run "$old"); old_s+=("$s"); old_c+=("$c"); old_i+=("$i")
    else read -r s c i < <(run "$new"); new_s+=("$s"); new_c+=("$c"); new_i+=("$i"); fi
    printf 'round %d %-3s %8.3f s wall %6.0f certs/s %8.3f s CPU %s instructions\n' "$r" "$which" \
      "$s" "$(echo "$count / $s" | bc -l)" "$c" "$i"
  done
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
ms_old=$(median "${old_s[@]}"); ms_new=$(median "${new_s[@]}")
mc_old=$(median "${old_c[@]}"); mc_new=$(median "${new_c[@]}")
echo "median wall: old $ms_old s, new $ms_new s; new/old $(echo "$ms_new / $ms_old" | bc -l | cut -c1-6)"
echo "median CPU: old $mc_old s, new $mc_new s; new/old $(echo "$mc_new / $mc_old" | bc -l | cut -c1-6)"
if [ "$perf_ok" = 1 ]; then
  mi_old=$(median "${old_i[@]}"); mi_new=$(median "${new_i[@]}")
  echo "median instructions: old $mi_old, new $mi_new; new/old $(echo "$mi_new / $mi_old" | bc -l | cut -c1-6)"
elif command -v valgrind >/dev/null; then
  io=$(callgrind "$old" | tr -d ,); in=$(callgrind "$new" | tr -d ,)
  echo "instructions (callgrind, ${CALLGRIND_COUNT:-300} certificates): old $io, new $in; new/old $(echo "$in / $io" | bc -l | cut -c1-6)"
fi
