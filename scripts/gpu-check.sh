#!/usr/bin/env bash
# The CUDA backend's checks on a machine with an NVIDIA device, from a bundle that
# scripts/gpu-bundle.sh made (no Rust toolchain or JDK needed there; NVRTC and the driver are):
# the differential test on the device (every fixture instance on the CUDA kernel under both
# mappings against the CPU backend, and the CUDA report equal to the CPU's), the reports of
# commons-cli from both backends compared, and instances per second of the CUDA backend, the CPU
# backend, `java` and `java -Xint` on the VM fixtures and the Korat structures.
#
#   scripts/gpu-check.sh BUNDLE.tar.xz     (from the repository's root)
set -uo pipefail
bundle=$(realpath "$1")
root=$(pwd)
b=$(mktemp -d)
step() { echo; echo "=== $* ($(date +%T))"; }
xz -dc -T0 "$bundle" | tar -xf - -C "$b" || exit 2
export JAVA_HOME=$b/jdk PATH=$b/jdk/bin:$PATH
export LD_LIBRARY_PATH=$b/lib:/usr/local/cuda/targets/x86_64-linux/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi -L || { echo "no NVIDIA device here" >&2; exit 2; }
# The test binary looks for the checkout and the jresa binary where it was built.
built=$(cat "$b/built-in")
[ -e "$built" ] || { mkdir -p "$(dirname "$built")"; ln -s "$root" "$built"; }
mkdir -p "$root/target/release" && cp "$b/bin/jresa" "$root/target/release/jresa"
step differential
"$b/bin/suite" --test-threads 4 --nocapture kernel_differential every_backend || exit 1
step commons-cli, cpu and cuda reports
for backend in cpu cuda; do
    "$root/target/release/jresa" validate --max-size 3 --backend "$backend" --format json \
        "$b/jars/commons-cli.jar" > "$b/cli_$backend.json" 2> "$b/cli_$backend.err"
    grep -E "instances|bounded" "$b/cli_$backend.err"
done
[ -s "$b/cli_cuda.json" ] || { cat "$b/cli_cuda.err"; exit 1; }
python3 - "$b/cli_cpu.json" "$b/cli_cuda.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
a["backend"] = b["backend"] = None
print("reports equal:", a == b)
sys.exit(0 if a == b else 1)
PY
step VM fixtures, 50000 instances per method
JRESA_BENCH_QUICK=1 JRESA_BENCH_PER_METHOD=50000 JRESA_BENCH_BACKENDS=cpu,cuda "$b/bin/vm" --bench
step Korat structures
JRESA_BENCH_QUICK=1 JRESA_BENCH_BACKENDS=cpu,cuda "$b/bin/validate" --bench
