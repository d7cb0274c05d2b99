#!/usr/bin/env bash
# What pre-issuance validation costs `pkit issue batch`: two binaries (one built before
# the check existed, one after) issue the same batch from the same constrained
# intermediate, alternating, ROUNDS times; prints each run's wall time and user-space
# instruction count (perf stat, when perf can count) and the medians' ratios.
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

# One run: "SECONDS INSTRUCTIONS" (instructions 0 without perf).
run() {
  local bin=$1 ca="$work/run-ca" out="$work/out"
  rm -rf "$ca" "$out"
  cp -a "$work/int" "$ca"
  local start end ins=0
  start=$(date +%s.%N)
  if [ "$perf_ok" = 1 ]; then
    ins=$(perf stat -x, -e instructions:u -- "$bin" issue batch --ca "$ca" --count "$count" \
      --subject-template 'CN=h{n}.bench.internal' --san-template 'DNS:h{n}.bench.internal' \
      --out-dir "$out" 2>&1 >/dev/null | awk -F, '/instructions/ {print $1}' | tail -1)
  else
    "$bin" issue batch --ca "$ca" --count "$count" \
      --subject-template 'CN=h{n}.bench.internal' --san-template 'DNS:h{n}.bench.internal' \
      --out-dir "$out" >/dev/null 2>&1
  fi
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc) ${ins:-0}"
}

declare -a old_s old_i new_s new_i
for r in $(seq 1 "$rounds"); do
  # Alternate which goes first, so drift over the session falls on both.
  if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for which in $order; do
    if [ "$which" = old ]; then read -r s i < <(run "$old"); old_s+=("$s"); old_i+=("$i")
    else read -r s i < <(run "$new"); new_s+=("$s"); new_i+=("$i"); fi
    printf 'round %d %-3s %8.3f s %6.0f certs/s %s instructions\n' "$r" "$which" "$s" \
      "$(echo "$count / $s" | bc -l)" "$i"
  done
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
ms_old=$(median "${old_s[@]}"); ms_new=$(median "${new_s[@]}")
mi_old=$(median "${old_i[@]}"); mi_new=$(median "${new_i[@]}")
echo "median wall: old $ms_old s, new $ms_new s; new/old $(echo "$ms_new / $ms_old" | bc -l | cut -c1-6)"
if [ "$perf_ok" = 1 ]; then
  echo "median instructions: old $mi_old, new $mi_new; new/old $(echo "$mi_new / $mi_old" | bc -l | cut -c1-6)"
fi
