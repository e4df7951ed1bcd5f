#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer: a debug build, then a release build (the
# optimizer moves releases of objects earlier, which is where unsafe pointer code goes wrong
# if it does not keep what it points into alive).
#
#   Scripts/check-address-sanitizer.sh            # debug, then release
#   Scripts/check-address-sanitizer.sh release    # one of them
#
# The core reads its registration table and instance cells through unsafe pointers and
# atomics; the thread sanitizer in CI sees races, not use after free or overflows. This is
# not part of CI: each build takes a few minutes on two cores (in .build-asan-debug and
# .build-asan-release), and it fails on any report of the sanitizer or any failed test.
#
# Left out, because the sanitizer changes what they measure:
#   - tests that run on a stack sized for the debug build's frames, to show that a deep
#     graph or a cycle fits in it: the sanitizer's red zones make every frame several times
#     larger, so the stack runs out where it would not;
#   - the benchmark's allocation counters and its freed-memory setting: the sanitizer
#     replaces malloc, so neither the counting hooks, nor mallinfo2(), mallopt() or
#     malloc_trim() reach the allocator that serves the allocations.
# Leak checking is off: many tests register a factory that captures its own registry, a
# reference cycle on purpose (the documented way a registry outlives its last reference),
# which the leak checker would report. That the library frees what it should is tested
# without it: a child registry and its singletons, a freed registry's observers, `.graph`
# instances after the resolve, a replaced route handler (tests named "...Freed...").
set -euo pipefail
cd "$(dirname "$0")/.."

left_out=(
    deepGraphsResolve
    cycleOfFiveThroughTheRegistryIsCaughtWithinASmallThreadStack
    cyclesAreThrownNeverAStackOverflow
    aFactoryThatValidatesMeetsItsOwnServiceAsACycle
    aTaskOnANeighbouringStackWaitsForTheBuild
    fixedOperationsRunEveryPassWithExactlyThatCount
    heapUsageSeesBytesThatAreHeld
    heldBytesAreTheHeapEachOperationKeeps
    aTimingRunKeepsWhatASampleFreesForTheNext
    aFirstLaunchIsTimedAfterTheFreedMemoryIsHandedBack
)
configurations=("$@")
[[ ${#configurations[@]} -gt 0 ]] || configurations=(debug release)

for configuration in "${configurations[@]}"; do
    case $configuration in
        # INTERLEAVING_HOOKS: the points where the interleaving tests hold threads.
        debug) flags=(-Xswiftc -DINTERLEAVING_HOOKS) ;;
        release) flags=(-c release -Xswiftc -enable-testing -Xswiftc -DINTERLEAVING_HOOKS) ;;  # -enable-testing for @testable
        *) echo "usage: $0 [debug] [release]" >&2; exit 2 ;;
    esac
    scratch=.build-asan-$configuration
    log=$scratch/address-sanitizer-tests.log
    printf '\n=== AddressSanitizer, %s build ===\n' "$configuration"
    swift build --build-tests --sanitize=address "${flags[@]}" --scratch-path "$scratch"

    # `--skip` passes when it matches nothing, so a renamed test would run here and fail
    # for the sanitizer's reasons: check that each one left out still exists.
    tests=$(swift test list --skip-build --sanitize=address "${flags[@]}" --scratch-path "$scratch")
    skip=
    for name in "${left_out[@]}"; do
        if ! grep -q "/$name(" <<<"$tests"; then
            echo "error: $0 leaves out $name, but there is no such test (renamed?); update the list" >&2
            exit 1
        fi
        skip+="${skip:+|}$name"
    done

    status=0
    ASAN_OPTIONS=detect_leaks=0 swift test --skip-build --sanitize=address "${flags[@]}" \
        --scratch-path "$scratch" --skip "$skip" 2>&1 | tee "$log" || status=$?
    if grep -q "ERROR: AddressSanitizer" "$log"; then
        echo "error: AddressSanitizer reported a problem in the $configuration build (above; log in $log)" >&2
        exit 1
    fi
    if [[ $status -ne 0 ]]; then
        echo "error: the tests failed under AddressSanitizer in the $configuration build (log in $log)" >&2
        exit 1
    fi
done
echo "AddressSanitizer: no reports, every test passed (${configurations[*]})."
