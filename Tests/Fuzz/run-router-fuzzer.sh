#!/usr/bin/env bash
# Builds the router's libFuzzer target with the address sanitizer and runs it for a bounded
# time. Exits non-zero if the build fails or the fuzzer finds a crash, a sanitizer error,
# a failed check, a timeout or runaway memory.
#
#   Tests/Fuzz/run-router-fuzzer.sh [seconds]        # default 60
#
# Needs only the Swift toolchain (swiftc with -sanitize=fuzzer, and its bundled lld).
# Build products, the growing corpus and crash artifacts go to .build/router-fuzz (or
# $ROUTER_FUZZ_DIR); the source tree is never written. Tests/Fuzz/corpus holds read-only
# seeds. Reproduce a crash with: .build/router-fuzz/router-fuzzer <artifact file>
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in
    '' | *[!0-9]*) echo "usage: $0 [seconds]  (a whole number of seconds)" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${ROUTER_FUZZ_DIR:-$root/.build/router-fuzz}"
optimization="${ROUTER_FUZZ_OPTIMIZATION:--O}"
mkdir -p "$work/modules" "$work/corpus" "$work/artifacts"

common=(
    -swift-version 6 -enable-upcoming-feature MemberImportVisibility -parse-as-library
    -package-name ServiceRegistry
    "$optimization" -g -sanitize=fuzzer,address -use-ld=lld
)

registry_sources=()
while IFS= read -r -d '' file; do registry_sources+=("$file"); done \
    < <(find "$root/Sources/ServiceRegistry" -name '*.swift' -print0 | sort -z)
router_sources=()
while IFS= read -r -d '' file; do router_sources+=("$file"); done \
    < <(find "$root/Sources/ServiceRouter" -name '*.swift' -print0 | sort -z)

echo "router-fuzzer: building ServiceRegistry (${#registry_sources[@]} files)"
swiftc "${common[@]}" -module-name ServiceRegistry \
    -emit-module -emit-module-path "$work/modules/ServiceRegistry.swiftmodule" \
    -emit-library -static -o "$work/libServiceRegistry.a" \
    "${registry_sources[@]}"

# The router sources and the fuzz entry point form one module, so the entry point can
# check the trie against a brute-force matcher (the one TrieOracleTests uses) through the
# router's internals.
echo "router-fuzzer: building the router fuzz target (${#router_sources[@]} files)"
swiftc "${common[@]}" -module-name ServiceRouter -I "$work/modules" -D ROUTER_FUZZ \
    "${router_sources[@]}" "$root/Tests/Fuzz/RouterFuzzTarget.swift" \
    "$root/Tests/ServiceRouterTests/BruteForceMatcher.swift" \
    "$work/libServiceRegistry.a" -o "$work/router-fuzzer"

echo "router-fuzzer: fuzzing for ${seconds}s"
# New inputs go to the first corpus directory (under .build); the seeds are only read.
# Swift's own crash backtracer is switched off: it reads the stack in a way that the
# address sanitizer reports as a second, unrelated error, hiding the real one.
SWIFT_BACKTRACE=enable=no "$work/router-fuzzer" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=1024 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    "$work/corpus" "$root/Tests/Fuzz/corpus"
