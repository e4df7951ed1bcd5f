#!/usr/bin/env bash
# Measures the machine code an app's factories compile to in a release build: how much each
# `try r.resolve(...)` adds where the app calls it (`resolve` is inlinable, so that code is
# the app's, not the library's). Not in CI; Docs/Performance.md, *Code size*, quotes it.
#
#   Scripts/measure-call-site-size.sh [factories]     # 200 by default
#
# Generates one file of `factories` registrations, each factory resolving 3 to 8
# dependencies through `r`, compiles it with `swiftc -O -wmo` against a release build of
# ServiceRegistry (in .build-size), and prints the size of the factory closures' code.
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-200}
scratch=.build-size
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --scratch-path "$scratch" --target ServiceRegistry >/dev/null
modules=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/Modules

resolves=0
{
    echo "import ServiceRegistry"
    for ((i = 0; i < count; i++)); do
        echo "public protocol P$i: Sendable {}"
    done
    for ((i = 0; i < count; i++)); do
        dependencies=$((3 + i % 6))
        fields="" parameters="" assignments=""
        for ((j = 0; j < dependencies; j++)); do
            d=$(((i * 7 + j * 13 + 1) % count))
            fields+=" let d$j: any P$d;"
            parameters+="${parameters:+, }d$j: any P$d"
            assignments+=" self.d$j = d$j;"
        done
        echo "struct Impl$i: P$i {$fields init($parameters) {$assignments } }"
    done
    echo "public func registerAll(_ registry: ServiceRegistry) {"
    for ((i = 0; i < count; i++)); do
        dependencies=$((3 + i % 6))
        arguments=""
        for ((j = 0; j < dependencies; j++)); do
            d=$(((i * 7 + j * 13 + 1) % count))
            arguments+="${arguments:+, }d$j: try r.resolve(P$d.self)"
            resolves=$((resolves + 1))
        done
        echo "    registry.register(P$i.self) { r in Impl$i($arguments) }"
    done
    echo "}"
} >"$work/Factories.swift"

swiftc -O -wmo -parse-as-library -swift-version 6 -module-name Factories -I "$modules" \
    -c "$work/Factories.swift" -o "$work/Factories.o"

# The factory closures: the closures in `registerAll` that take a Resolver.
closure_bytes=0
while read -r _ size _ symbol; do
    [[ $symbol == *registerAll*ResolverV*cfU* ]] && closure_bytes=$((closure_bytes + 16#$size))
done < <(nm -S "$work/Factories.o")
text_bytes=$(size "$work/Factories.o" | awk 'NR == 2 { print $1 }')

echo "factories:                     $count"
echo "resolves through r:            $resolves"
echo "object file text:              $text_bytes bytes"
echo "factory closures:              $closure_bytes bytes"
echo "per resolve (closures/resolves): $((closure_bytes / resolves)) bytes"
