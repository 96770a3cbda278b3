#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for a
# bounded time, seeded with the project's own examples and the ADS-B captures.
# Crash inputs land in Tests/Fuzz/crashes/TARGET/; keep each as a regression
# input under Tests/Fuzz/regressions/TARGET/ (FuzzRegressionTests replays them).
#
#   bash Tests/Fuzz/fuzz.sh [SECONDS-PER-TARGET] [TARGET...]    (default 20 s, all four)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${1:-20}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(command config aircraft sbs)
build=$root/.build/fuzz
mkdir -p "$build/src"
# One module: the parsers' sources with their cross-module imports dropped.
sources=(
    "$root/Sources/JSON/JSONValue.swift" "$root/Sources/JSON/JSONParser.swift" "$root/Sources/JSON/Trimming.swift"
    "$root/Sources/Feed/AircraftReport.swift" "$root/Sources/Feed/AircraftJSON.swift" "$root/Sources/Feed/SBS1Decoder.swift"
    "$root/Sources/Feed/Geodesy.swift" "$root/Sources/Feed/OverheadSelector.swift"
    "$root/Sources/RadarKiosk/KioskState.swift" "$root/Sources/RadarKiosk/KioskCommand.swift"
    "$root/Sources/RadarKiosk/KioskConfiguration.swift" "$root/Sources/RadarKiosk/CommandLine.swift"
)
rm -f "$build/src"/*.swift
for f in "${sources[@]}"; do
    sed -E '/^import (JSON|Feed)$/d' "$f" > "$build/src/$(basename "$f")"
done
cp "$here/FuzzEntry.swift" "$build/src/"
status=0
for t in "${targets[@]}"; do
    flag=FUZZ_$(echo "$t" | tr a-z A-Z)
    swiftc -O -sanitize=fuzzer,address -parse-as-library -D "$flag" "$build/src"/*.swift -o "$build/fuzz-$t" 2>&1 \
        | grep -v "Cannot export local symbol" || true
    corpus=$build/corpus/$t
    mkdir -p "$corpus" "$here/crashes/$t"
    cp "$here/seeds/$t"/* "$corpus/" 2>/dev/null || true
    case $t in
        aircraft) cp "$root"/Tests/FeedTests/Fixtures/*.json "$corpus/" ;;
        sbs) cp "$root"/Tests/FeedTests/Fixtures/*.txt "$corpus/" ;;
    esac
    echo "== fuzz $t for $seconds s" >&2
    if ! (cd "$here/crashes/$t" && "$build/fuzz-$t" -max_total_time="$seconds" -max_len=262144 -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 "$corpus" 2>"$build/fuzz-$t.log"); then
        echo "FAIL: fuzz target $t found a crash; see $build/fuzz-$t.log and $here/crashes/$t/" >&2
        tail -30 "$build/fuzz-$t.log" >&2
        status=1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/fuzz-$t.log" | sed "s/^/$t: /" >&2 || true
done
[ "$status" = 0 ] && echo "fuzz: ${#targets[@]} passed, 0 failed" || echo "fuzz: failures found"
exit $status
