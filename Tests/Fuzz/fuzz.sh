#!/usr/bin/env bash
# Builds the libFuzzer target (the parsers, with AddressSanitizer) and runs
# each fuzz target for a bounded time, seeded with the project's own examples
# and the ADS-B captures. Crash inputs land in .build/fuzz/crashes/TARGET/;
# keep each as a regression input under Tests/Fuzz/regressions/TARGET/
# (FuzzRegressionTests replays them). A build that fails fails the run.
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
cd "$root"
swift build -c release --build-path "$build" --product radar-kiosk-fuzz --sanitize fuzzer --sanitize address \
    -Xswiftc -DFUZZING >"$build.log" 2>&1 || { tail -30 "$build.log" >&2; echo "FAIL: the fuzz target did not build" >&2; exit 1; }
fuzzer="$(swift build -c release --build-path "$build" --show-bin-path --sanitize fuzzer --sanitize address)/radar-kiosk-fuzz"
status=0
for t in "${targets[@]}"; do
    corpus=$build/corpus/$t
    mkdir -p "$corpus" "$build/crashes/$t"
    cp "$here/seeds/$t"/* "$corpus/" 2>/dev/null || true
    case $t in
        aircraft) cp "$root"/Tests/FeedTests/Fixtures/*.json "$corpus/" ;;
        sbs) cp "$root"/Tests/FeedTests/Fixtures/*.txt "$corpus/" ;;
    esac
    echo "== fuzz $t for $seconds s" >&2
    if ! (cd "$build/crashes/$t" && FUZZ_TARGET=$t "$fuzzer" -max_total_time="$seconds" -max_len=262144 -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 "$corpus" 2>"$build/fuzz-$t.log"); then
        echo "FAIL: fuzz target $t found a crash; see $build/fuzz-$t.log and $build/crashes/$t/" >&2
        tail -30 "$build/fuzz-$t.log" >&2
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz-$t.log")
    if [ -z "$runs" ] || [ "$runs" -lt 100 ]; then
        echo "FAIL: fuzz target $t ran ${runs:-no} inputs" >&2
        status=1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/fuzz-$t.log" | sed "s/^/$t: /" >&2 || true
done
[ "$status" = 0 ] && echo "fuzz: ${#targets[@]} passed, 0 failed" || echo "fuzz: failures found"
exit $status
