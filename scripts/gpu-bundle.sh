#!/usr/bin/env bash
# Packs what the GPU checks (scripts/gpu-check.sh) need on a machine with an NVIDIA device but no
# Rust toolchain or JDK: the release binaries (jresa, the integration-test binary, the `vm` and
# `validate` benchmarks), libz3, a jlink image of the JDK with a java.base.jmod, and the commons
# jars. Writes one xz-compressed tar (default: gpu-bundle.tar.xz) to unpack there.
#
#   scripts/gpu-bundle.sh [OUT.tar.xz]
set -euo pipefail
out=$(realpath -m "${1:-gpu-bundle.tar.xz}")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
cargo build --release --tests
cargo bench --no-run --bench vm --bench validate
mkdir -p "$work/bin" "$work/lib" "$work/jars"
newest() { ls -t target/release/deps/"$1"-* | grep -v '\.d$' | head -1; }
strip -o "$work/bin/jresa" target/release/jresa
strip -o "$work/bin/suite" "$(newest suite)"
strip -o "$work/bin/vm" "$(newest vm)"
strip -o "$work/bin/validate" "$(newest validate)"
cp -L "$(ldd target/release/jresa | awk '/libz3/ {print $3}')" "$work/lib/"
cp /usr/share/java/commons-cli.jar /usr/share/java/commons-lang3.jar "$work/jars/"
# A JDK image with javac (the tests compile their fixtures), sun.misc.Unsafe (the benchmark
# drivers) and what the profiler's agent uses; uncompressed, since xz packs it better.
jlink --add-modules java.base,jdk.compiler,java.compiler,jdk.jartool,jdk.zipfs,java.instrument,java.management,jdk.attach,jdk.unsupported \
    --strip-debug --no-man-pages --no-header-files --compress=0 --output "$work/jdk"
# java.base.jmod with stored entries: the same classes, but xz compresses it to about half.
jmod=$(dirname "$(readlink -f "$(command -v java)")")/../jmods/java.base.jmod
mkdir -p "$work/jmod/x" "$work/jdk/jmods"
tail -c +5 "$jmod" > "$work/jmod/deflated.zip"
(cd "$work/jmod/x" && unzip -q ../deflated.zip && zip -q -0 -r ../stored.zip .)
{ printf 'JM\001\000'; cat "$work/jmod/stored.zip"; } > "$work/jdk/jmods/java.base.jmod"
# The test binary finds its data and the jresa binary under the checkout it was built in.
echo "$root" > "$work/built-in"
tar -C "$work" -cf - bin lib jars jdk built-in | xz -T0 -6 > "$out"
ls -l "$out"
