#!/usr/bin/env bash
# Instructions executed by each pass of the bindings bench (benches/bindings.rs),
# counted by valgrind: unlike wall time, the same on a busy machine as on a
# quiet one. Each pass runs once over a 4 MiB record set; only the pass is
# counted (callgrind's --toggle-collect), not the set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
bench=$(cargo bench --quiet -p concord --bench bindings --no-run --message-format=json 2>/dev/null \
    | sed -n 's/.*"executable":"\([^"]*bindings-[^"]*\)".*/\1/p' | tail -1)
count() {
    CONCORD_BENCH_MIB=4 CONCORD_BENCH_PROFILE="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect='bindings::run_once' "$bench" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,
}
for pass in "read ClsArtifact" "read Evidence" "write ClsArtifact" "write Evidence"; do
    concord=$(count "$pass concord")
    hand=$(count "$pass hand")
    awk -v what="$pass" -v c="$concord" -v h="$hand" \
        'BEGIN { printf "instructions %-17s concord %12d  hand-written %12d  ratio %.2fx (hand-written / concord)\n", what, c, h, h / c }'
done
