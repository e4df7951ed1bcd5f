#!/usr/bin/env bash
# Type-checks the package for the Apple platforms Package.swift declares, at their minimum
# versions (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2), from Linux: the libraries for
# all five, every other target for macOS.
#
#   Scripts/check-apple-availability.sh                 # every declared platform
#   Scripts/check-apple-availability.sh macos ios       # some of them
#
# Linux does not enforce `@available`, so code that calls an API newer than our minimums
# (`InlineArray`, macOS 26) builds here and breaks on a Mac. The toolchain's textual
# interfaces (`Swift`, `_Concurrency`, `_StringProcessing`, `Synchronization`, `Testing`)
# carry the Apple availability of every declaration, so this script rebuilds them for each
# Apple target (x86_64 macOS, the x86_64 simulators of the others) into a stand-in SDK and
# type-checks our sources against them:
#
#   every platform   the library products (ServiceRegistry, ServiceRouter,
#                    ServiceRegistryTesting) and the WeRead example's libraries
#   macOS only       the weread app, the benchmark, every test target, and
#                    Tests/ConsumerPackage (tests run only on a Mac or Linux)
#
# Foundation, Dispatch, Darwin and XCTest have no textual interface in the toolchain; the
# targets that import them are checked against the stand-ins in Scripts/apple-availability-stubs
# (the declarations this package uses, without availability). A target that starts using
# more of them fails here with "cannot find ... in scope": add the declaration there.
#
# What it catches: a use of any declaration of the standard library, Concurrency,
# Synchronization or Swift Testing whose `@available` is above the platform's minimum or
# that is unavailable there (the errors Xcode gives), with `#if os(...)`/`canImport` taken
# as the Apple build takes them.
#
# What it cannot catch:
#   - Foundation, Dispatch, Darwin or XCTest API that is too new or missing on a platform:
#     the stand-ins carry no availability.
#   - What Apple's own builds of the interfaced modules declare differently from the Linux
#     ones. Swift Testing's exit tests, for one, are `unavailable` on iOS, tvOS, watchOS and
#     visionOS (`SWT_NO_EXIT_TESTS`), but the Linux interface has them.
#   - Runtime features the compiler does not gate on the deployment target: an isolated
#     conformance (`@MainActor P`, macOS 26 runtime for casts) type-checks at macOS 15.
#   - Older compilers: the interfaces are Swift 6.3.1's; API added to the standard library
#     without an OS version (always emitted into the client) passes here and fails on an
#     older Xcode.
#   - visionOS versions of declarations that name only iOS are derived here (see
#     `visionos_from_ios`), not read from Apple's SDK.
#   - Objective-C interop (the stand-in standard library is built without it), code
#     generation and linking: nothing is compiled to object code. Tests/Fuzz is left out.
#
# Needs only the Swift toolchain (x86_64 Linux) and perl. Writes only under
# .build/apple-availability. On 2 cores the first run takes about 5 minutes (it rebuilds
# the interfaces once per platform); later runs reuse them and take about 100 seconds,
# 60 of them for macOS (every target), 10 for each other platform.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

fail() { printf 'error: %s\n' "$*" >&2; exit 1; }

swiftc=$(command -v swiftc) || fail "swiftc is not on PATH"
host_triple=$("$swiftc" -print-target-info | sed -nE 's/^ *"triple": *"([^"]+)".*/\1/p' | head -n 1)
resources=$("$swiftc" -print-target-info | sed -nE 's/^ *"runtimeResourcePath": *"([^"]+)".*/\1/p' | head -n 1)
case $host_triple in
    x86_64-unknown-linux-gnu) ;;
    *) fail "needs an x86_64 Linux toolchain (the interfaces are rebuilt from x86_64-unknown-linux-gnu); this is $host_triple" ;;
esac
interfaces=$resources/linux

# name  platform directory  target triple (x86_64, so that Float80 in the Linux interface
# of the standard library has what it needs)  interface file name
platforms_table=(
    "macos    macosx           x86_64-apple-macos15.0             x86_64-apple-macos"
    "ios      iphonesimulator  x86_64-apple-ios18.0-simulator     x86_64-apple-ios-simulator"
    "tvos     appletvsimulator x86_64-apple-tvos18.0-simulator    x86_64-apple-tvos-simulator"
    "watchos  watchsimulator   x86_64-apple-watchos11.0-simulator x86_64-apple-watchos-simulator"
    "visionos xrsimulator      x86_64-apple-xros2.0-simulator     x86_64-apple-xros-simulator"
)
wanted=("$@")
if [[ ${#wanted[@]} -eq 0 ]]; then wanted=(macos ios tvos watchos visionos); fi

work=$root/.build/apple-availability
resource_dir=$work/resources
# An empty SDK (every module comes from the resource directory below); the driver's
# warning that it has no SDKSettings.json is filtered from the output.
mkdir -p "$work/sdk" "$resource_dir"
for link in shims clang apinotes; do
    [[ -e $resource_dir/$link ]] || ln -s "$resources/$link" "$resource_dir/$link"
done

# One module's Linux interface, rewritten for an Apple target:
#   - the module itself is built without availability checking (its inlinable code, as the
#     Linux interface prints it, does not pass it); the `@available` attributes our code is
#     checked against stay;
#   - `import Glibc` goes (Synchronization's Linux mutex imports it), and the one Glibc-
#     backed shim call in its inlinable code (`_swift_stdlib_gettid()`) becomes a constant;
#   - `@backDeployed` goes: the Linux interface prints those functions without the bodies
#     the attribute needs; it changes code generation only, never what is available.
install_interface() {
    local module=$1 directory=$2 triple=$3 file=$4
    local source=$interfaces/$module.swiftmodule/$host_triple.swiftinterface
    [[ -f $source ]] || fail "no textual interface for $module at $source"
    mkdir -p "$resource_dir/$directory/$module.swiftmodule"
    sed -E \
        -e "s|^(// swift-module-flags: .*)-target $host_triple|\1-disable-availability-checking -target $triple|" \
        -e '/^import Glibc$/d' \
        -e 's/_swift_stdlib_gettid\(\)/Swift.UInt32(1)/' \
        -e '/^ *@backDeployed\(.*\)$/d' \
        "$source" | visionos_from_ios "$directory" \
        >"$resource_dir/$directory/$module.swiftmodule/$file.swiftinterface.new"
    # The module cache does not reliably notice a rewritten interface, so a changed one
    # (a new toolchain, a change to this script) empties the platform's cache.
    if cmp -s "$resource_dir/$directory/$module.swiftmodule/$file.swiftinterface.new" \
        "$resource_dir/$directory/$module.swiftmodule/$file.swiftinterface"; then
        rm "$resource_dir/$directory/$module.swiftmodule/$file.swiftinterface.new"
    else
        mv "$resource_dir/$directory/$module.swiftmodule/$file.swiftinterface.new" \
            "$resource_dir/$directory/$module.swiftmodule/$file.swiftinterface"
        interfaces_changed=true
    fi
}

# visionOS takes an older declaration's availability from its iOS version, through the
# iOS-to-visionOS map in the real SDK's SDKSettings.json, which the stand-in SDK lacks (and
# given one, the compiler no longer finds SwiftShims). So for visionOS every
# `@available(... iOS N ...)` that names no visionOS gets the version it maps to: visionOS
# 1.0 for iOS 17 and older (every one in these interfaces), 9999 for 9999.
visionos_from_ios() {
    if [[ $1 != xrsimulator ]]; then cat; return; fi
    perl -pe 's/(\@available\((?![^)]*visionOS)[^)]*?\biOS (\d+)(?:\.\d+)*)/$1 . ", visionOS " . ($2 >= 9999 ? "9999" : $2 <= 17 ? "1.0" : ($2 - 16) . ".0")/ge'
}

# Every target, in dependency order: module name, folder, kind (a library is emitted for the
# targets after it, which type-checks it in full; an executable is emitted too, without
# -parse-as-library; a test target is only type-checked), and the platforms it is checked
# for: the libraries and the example components for all, the rest, which run only on a Mac
# or Linux, for macOS. The stubs stand in for Foundation, Dispatch, Darwin and XCTest. A fifth
# field, `approachable`, gives a target the settings of Tests/ConsumerPackage's
# `approachableConcurrency` (default main-actor isolation and two upcoming features).
targets_table=(
    "ServiceRegistry              Sources/ServiceRegistry                           library    all"
    "WeReadInterfaces             Sources/WeReadInterfaces                          library    all"
    "ServiceRouter                Sources/ServiceRouter                             library    all"
    "ServiceRegistryTesting       Sources/ServiceRegistryTesting                    library    all"
    "WeReadBookDetail             Sources/WeReadBookDetail                          library    all"
    "WeReadReview                 Sources/WeReadReview                              library    all"
    "WeReadReading                Sources/WeReadReading                             library    all"
    "WeReadBookshelf              Sources/WeReadBookshelf                           library    all"
    "Darwin                       Scripts/apple-availability-stubs/Darwin.swift     library    all"
    "Dispatch                     Scripts/apple-availability-stubs/Dispatch.swift   library    all"
    "Foundation                   Scripts/apple-availability-stubs/Foundation.swift library    all"
    "XCTest                       Scripts/apple-availability-stubs/XCTest.swift     library    macos"
    "WeReadCatalog                Sources/WeReadCatalog                             library    all"
    "weread                       Sources/weread                                    executable macos"
    "registry_benchmark           Sources/registry-benchmark                        executable macos"
    "ServiceRegistryTestComponent Tests/ServiceRegistryTestComponent                library    macos"
    "SeededRandom                 Tests/SeededRandom                                library    macos"
    "ThreadTestSupport            Tests/ThreadTestSupport                           library    macos"
    "ServiceRegistryTests         Tests/ServiceRegistryTests                        test       macos"
    "ServiceRegistryTestingTests  Tests/ServiceRegistryTestingTests                 test       macos"
    "ServiceRouterTests           Tests/ServiceRouterTests                          test       macos"
    "WeReadTests                  Tests/WeReadTests                                 test       macos"
    "RegistryBenchmarkTests       Tests/RegistryBenchmarkTests                      test       macos"
    "DocumentationExamplesTests   Tests/DocumentationExamplesTests                  test       macos"
    "ConsumerApp                  Tests/ConsumerPackage/Sources/ConsumerApp         executable macos"
    "ConsumerTests                Tests/ConsumerPackage/Tests/ConsumerTests         test       macos"
    "Interfaces                   Tests/ConsumerPackage/Sources/Interfaces          library    macos"
    "Reviews                      Tests/ConsumerPackage/Sources/Reviews             library    macos"
    "BookDetail                   Tests/ConsumerPackage/Sources/BookDetail          library    macos"
    "BookApp                      Tests/ConsumerPackage/Sources/BookApp             executable macos"
    "BookAppTests                 Tests/ConsumerPackage/Tests/BookAppTests          test       macos"
    "MainActorAppInterfaces       Tests/ConsumerPackage/Sources/MainActorAppInterfaces library macos"
    "MainActorApp                 Tests/ConsumerPackage/Sources/MainActorApp        library    macos approachable"
    "MainActorAppTests            Tests/ConsumerPackage/Tests/MainActorAppTests     test       macos approachable"
)

# Tests/ConsumerPackage's `approachableConcurrency`, as swiftc flags.
approachable_flags=(
    -default-isolation MainActor -enable-upcoming-feature NonisolatedNonsendingByDefault
    -enable-upcoming-feature InferIsolatedConformances
)

# The settings every target gets from Package.swift: Swift 6 mode and the upcoming
# features its loop adds. `-disable-objc-interop`: the stand-in standard library has none,
# and without it the compiler cannot find the pointer-conversion intrinsics.
# The benchmark's C target is found by its module map, as SwiftPM finds it; its header
# includes nothing, so the empty SDK is enough.
common_flags=(
    -swift-version 6 -enable-upcoming-feature MemberImportVisibility
    -package-name serviceregistry -enable-testing -Xfrontend -disable-objc-interop
    -I "$root/Sources/CAllocatorControl/include"
)

problems=()
started=$SECONDS
for name in "${wanted[@]}"; do
    row=
    for candidate in "${platforms_table[@]}"; do
        read -r key directory triple file <<<"$candidate"
        if [[ $key == "$name" ]]; then row=$candidate; fi
    done
    [[ -n $row ]] || fail "unknown platform '$name' (one of: macos ios tvos watchos visionos)"
    read -r key directory triple file <<<"$row"

    interfaces_changed=false
    for module in Swift _Concurrency _StringProcessing _RegexParser SwiftOnoneSupport Synchronization \
        Testing _TestingInterop _TestDiscovery; do
        install_interface "$module" "$directory" "$triple" "$file"
    done
    module_cache=$work/module-cache/$name
    if $interfaces_changed; then rm -rf "$module_cache"; fi

    # Emptied, so that a module only a later target may import is never there for an
    # earlier one (a stub Foundation for the core, say).
    modules=$work/modules/$name
    rm -rf "$modules"
    mkdir -p "$modules" "$module_cache"
    flags=(
        -target "$triple" -sdk "$work/sdk" -resource-dir "$resource_dir"
        -module-cache-path "$module_cache" -I "$modules" "${common_flags[@]}"
    )
    platform_started=$SECONDS
    for entry in "${targets_table[@]}"; do
        read -r target folder kind platforms settings <<<"$entry"
        if [[ $platforms != all && $platforms != "$name" ]]; then continue; fi
        extra=()
        if [[ $settings == approachable ]]; then extra=("${approachable_flags[@]}"); fi
        case $kind in
            library) output=(-emit-module -emit-module-path "$modules/$target.swiftmodule" -parse-as-library) ;;
            executable) output=(-emit-module -emit-module-path "$modules/$target.swiftmodule") ;;
            test) output=(-typecheck -parse-as-library) ;;
        esac
        log=$work/logs/$name-$target.log
        mkdir -p "$work/logs"
        if "$swiftc" "${output[@]}" "${flags[@]}" ${extra[@]+"${extra[@]}"} -module-name "$target" $(find "$folder" -name '*.swift' | sort) >"$log" 2>&1; then
            status=0
        else
            status=$?
        fi
        grep -v '^warning: Could not read SDKSettings.json for SDK at: ' "$log" || true
        if [[ $status -ne 0 ]]; then problems+=("$target for $name ($triple)"); fi
    done
    printf '%s: %ds\n' "$name" $((SECONDS - platform_started))
done

printf 'checked %s in %ds\n' "${wanted[*]}" $((SECONDS - started))
if [[ ${#problems[@]} -gt 0 ]]; then
    printf 'error: does not type-check: %s\n' "${problems[@]}" >&2
    exit 1
fi
