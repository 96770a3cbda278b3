#!/usr/bin/env bash
# The same pictures from both architectures: reference frames at three sizes,
# the card, moments of the glide and a card from a captured feed, drawn by the
# amd64 binary here and by the arm64 binary in a Debian 12 arm64 root (under
# qemu-user), must be byte-identical.
#
#   renders.sh AMD64_BINARY ARM64_BINARY ARM64_ROOT
#
# Needs root (chroot).
set -uo pipefail
cd "$(dirname "$0")/../.."
amd64=$(readlink -f "$1") arm64=$(readlink -f "$2") arm64_root=$(readlink -f "$3")
here=$(mktemp -d)
there=$arm64_root/work/renders
trap 'rm -rf "$here" "$there"' EXIT
rm -rf "$there"
for dir in "$here" "$there"; do
    mkdir -p "$dir/out" "$dir/Data"
    cp Fonts/*.otf "$dir/"
    cp Tests/Package/overflight.json Tests/FeedTests/Fixtures/dump1090fa_plord12_44ac.json "$dir/"
    echo '{"mode":"standby"}' > "$dir/standby.json"
    # Found through the search path's ./Data, as from a checkout.
    cp Data/standing-data.rksd "$dir/Data/"
done
cp "$arm64" "$there/radar-kiosk"

renders=()
for size in 1920x1080 800x480 480x800; do
    for frame in 0 7 23; do renders+=("reference-$size-$frame.png|reference-frame --frame $frame --size $size"); done
    renders+=("card-$size.png|render --state overflight.json --size $size")
done
for at in 0.2 0.5 1.0; do renders+=("glide-$at.png|render --from standby.json --state overflight.json --at $at --size 800x480"); done
renders+=("feed.png|render --feed dump1090fa_plord12_44ac.json --station 51.350377,-0.578384 --size 800x480")

passed=0
failed=0
for entry in "${renders[@]}"; do
    name=${entry%%|*} arguments=${entry#*|}
    (cd "$here" && RADAR_KIOSK_FONTS=. "$amd64" $arguments --out "out/$name" >/dev/null 2>&1)
    chroot "$arm64_root" sh -c "cd /work/renders && RADAR_KIOSK_FONTS=. ./radar-kiosk $arguments --out out/$name" >/dev/null 2>&1
    if [ -s "$here/out/$name" ] && cmp -s "$here/out/$name" "$there/out/$name"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name differs between amd64 and arm64 ($arguments)" >&2
    fi
done
echo "renders amd64 = arm64: $passed identical, $failed differ"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
