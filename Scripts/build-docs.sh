#!/usr/bin/env bash
# Builds the API reference into a static website at .build/docs-site, with the Swift
# toolchain's own `docc`. Exits non-zero on any DocC warning (a broken symbol link, a
# documented parameter that does not exist, a link to a missing article), on any public
# symbol whose doc comment is missing or leaves a parameter or the return value
# undocumented, on any public symbol of a module that its catalog's Topics groups leave
# out (Docs/<Module>.docc, with an extension file per type), and on any page of the site that refers to a page it lacks
# (the last three: Scripts/check-api-docs.swift).
#
#   Scripts/build-docs.sh
#   python3 -m http.server --directory .build/docs-site 8000   # any static web server
#   open http://localhost:8000/documentation/serviceregistry/
#
# Needs only the toolchain (swift, swift-symbolgraph-extract, docc). Writes only under
# .build/; the source tree is read, never changed:
#   .build/<triple>/debug            an ordinary debug build of the library modules (the
#                                    one `swift build` makes, so after it this costs nothing)
#   .build/docs-work/symbol-graphs   each module's public symbols, extracted from its module
#   .build/docs-work/catalogs        each module's catalog, Docs/*.md copied into the main one
#   .build/docs-work/archives        one .doccarchive per module
#   .build/docs-work/site            the archives merged, before the checks pass
#   .build/docs-site                 the combined static site (`docc merge` of the archives)
#
# Environment (all optional):
#   DOCC, SYMBOLGRAPH_EXTRACT  the tools (default: next to `swift`, else on PATH, else xcrun)
#   DOCS_SCRATCH_PATH          the build directory to build and read the modules in
#                              (default: .build, as `swift build`)
#   DOCS_HOSTING_BASE_PATH     the path the site will be served under, e.g. /ServiceRegistry
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The library modules, in dependency order: each archive may link into the earlier ones.
modules=(ServiceRegistry ServiceRegistryTesting ServiceRouter)
# The module whose catalog holds the articles in Docs/*.md.
main_module=ServiceRegistry

work=$root/.build/docs-work
scratch=${DOCS_SCRATCH_PATH:-$root/.build}
site=$root/.build/docs-site

fail() { printf 'error: %s\n' "$*" >&2; exit 1; }
step() { printf '\n--- %s\n' "$*"; }

# A toolchain tool: $override if set, else next to `swift` (also through a symlink), else
# on PATH, else from xcrun.
find_tool() {
    local name=$1 override=$2 swift_bin candidate
    if [[ -n $override ]]; then echo "$override"; return; fi
    swift_bin=$(command -v swift) || fail "swift is not on PATH"
    for candidate in "$(dirname "$swift_bin")/$name" "$(dirname "$(readlink -f "$swift_bin")")/$name"; do
        if [[ -x $candidate ]]; then echo "$candidate"; return; fi
    done
    if command -v "$name" >/dev/null; then command -v "$name"; return; fi
    if command -v xcrun >/dev/null && xcrun --find "$name" >/dev/null 2>&1; then xcrun --find "$name"; return; fi
    fail "cannot find $name next to $swift_bin, on PATH or through xcrun"
}
docc=$(find_tool docc "${DOCC:-}")
symbolgraph_extract=$(find_tool swift-symbolgraph-extract "${SYMBOLGRAPH_EXTRACT:-}")

started=$SECONDS
rm -rf "$work/symbol-graphs" "$work/catalogs" "$work/archives" "$work/logs" "$work/site" "$site"
mkdir -p "$work/symbol-graphs" "$work/catalogs" "$work/archives" "$work/logs" "$scratch"

# 1. Symbol graphs: build the modules (an ordinary debug build, so it shares `.build` with
#    `swift build` and costs nothing after it), then extract each module's public symbols
#    from its .swiftmodule. Extracting, unlike `-emit-symbol-graph` at compile time, gives
#    fresh graphs even when nothing needs recompiling. Extension blocks give the
#    extensions of other modules' types (Testing's `Trait`) pages of their own.
step "Symbol graphs (build in $scratch)"
for module in "${modules[@]}"; do
    log=$work/logs/build-$module.log
    if ! swift build --scratch-path "$scratch" --target "$module" >"$log" 2>&1; then
        cat "$log"
        fail "building $module failed (above)"
    fi
    grep -E 'warning:|Build of target' "$log" || true
done
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
triple=$(swift -print-target-info | sed -nE 's/^ *"triple": *"([^"]+)".*/\1/p' | head -n 1)
[[ -n $triple ]] || fail "cannot read the target triple from 'swift -print-target-info'"
sdk=()
if command -v xcrun >/dev/null && xcrun --show-sdk-path >/dev/null 2>&1; then
    sdk=(-sdk "$(xcrun --show-sdk-path)")
fi
for module in "${modules[@]}"; do
    mkdir -p "$work/symbol-graphs/$module"
    # Writes Module.symbols.json, plus Module@Other.symbols.json for its extensions of
    # Other's types.
    "$symbolgraph_extract" -module-name "$module" -target "$triple" ${sdk[@]+"${sdk[@]}"} \
        -I "$bin/Modules" -I "$bin" \
        -minimum-access-level public -emit-extension-block-symbols \
        -output-dir "$work/symbol-graphs/$module" ||
        fail "extracting the symbol graph of $module failed"
    echo "$module: $(ls "$work/symbol-graphs/$module" | tr '\n' ' ')"
done

# 2. Catalogs: a copy of Docs/<Module>.docc (or an empty one), so that the articles in
#    Docs/*.md can be added without touching Docs/. The articles stay the one source; in
#    the copy, links between them (`[Scopes](Scopes.md)`, right on GitHub) become DocC
#    links (`<doc:Scopes>`-style), which DocC checks.
step "Catalogs"
for module in "${modules[@]}"; do
    catalog=$work/catalogs/$module.docc
    if [[ -d Docs/$module.docc ]]; then
        cp -R "Docs/$module.docc" "$catalog"
    else
        mkdir -p "$catalog"
    fi
done
articles=$work/catalogs/$main_module.docc/Articles
mkdir -p "$articles"
shopt -s nullglob
for article in Docs/*.md; do
    sed -E 's/\]\(([A-Za-z0-9_-]+)\.md(#[^)]*)?\)/](doc:\1\2)/g' "$article" >"$articles/$(basename "$article")"
    echo "article: $article"
done
shopt -u nullglob

# 3. One archive per module. Any diagnostic of warning severity or worse fails the build.
#    Rather than `--warnings-as-errors`, which stops before writing the archive, the
#    diagnostics are counted from docc's diagnostics file, so every module is converted
#    (and later modules can link into earlier ones) and one run reports every problem.
hosting=()
if [[ -n ${DOCS_HOSTING_BASE_PATH:-} ]]; then hosting=(--hosting-base-path "$DOCS_HOSTING_BASE_PATH"); fi
dependencies=()
archives=()
problems=()
for module in "${modules[@]}"; do
    step "docc convert $module"
    archive=$work/archives/$module.doccarchive
    log=$work/logs/docc-$module.log
    diagnostics=$work/logs/docc-$module.diagnostics.json
    status=0
    "$docc" convert "$work/catalogs/$module.docc" \
        --additional-symbol-graph-dir "$work/symbol-graphs/$module" \
        --output-path "$archive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "$module" \
        --default-code-listing-language swift \
        --transform-for-static-hosting \
        --enable-experimental-external-link-support \
        --diagnostics-file "$diagnostics" \
        ${hosting[@]+"${hosting[@]}"} \
        ${dependencies[@]+"${dependencies[@]}"} \
        >"$log" 2>&1 || status=$?
    # Point at the sources in Docs/ rather than at their copies (the lines are the same).
    if grep -q "[^[:space:]]" "$log"; then
        sed -e "s|$work/catalogs/$main_module.docc/Articles/|$root/Docs/|g" \
            -e "s|$work/catalogs/$module.docc/|$root/Docs/$module.docc/|g" "$log"
    fi
    count=$(grep -oE '"severity" *: *"(warning|error)"' "$diagnostics" 2>/dev/null | wc -l | tr -d ' ') || true
    if [[ $status -ne 0 || ! -f $diagnostics ]]; then
        problems+=("$module: docc convert failed (exit status $status)")
    elif [[ $count -ne 0 ]] || grep -qE ': (warning|error):' "$log"; then
        problems+=("$module: $count DocC warning(s) or error(s)")
    else
        echo "no warnings"
    fi
    if [[ -d $archive ]]; then
        dependencies+=(--dependency "$archive")
        archives+=("$archive")
    fi
done

# 4. One site: the archives merged, under a synthesized landing page that lists them.
#    Merged in the work directory first; it becomes .build/docs-site only if every check
#    passes.
step "docc merge"
merged=$work/site
log=$work/logs/docc-merge.log
status=0
if [[ ${#archives[@]} -eq ${#modules[@]} ]]; then
    "$docc" merge "${archives[@]}" \
        --output-path "$merged" \
        --synthesized-landing-page-name "ServiceRegistry package" \
        --synthesized-landing-page-kind Package \
        --synthesized-landing-page-topics-style detailedGrid \
        >"$log" 2>&1 || status=$?
    if grep -q "[^[:space:]]" "$log"; then cat "$log"; fi
    if [[ $status -ne 0 ]] || grep -qE ': (warning|error):' "$log" || [[ ! -f $merged/index.html ]]; then
        problems+=("docc merge failed (exit status $status)")
    else
        echo "merged ${modules[*]}"
    fi
else
    problems+=("not merged: a module has no archive")
fi

# 5. What DocC does not check: every public symbol has a doc comment that documents each
#    parameter and the return value, every public symbol of every module is listed by
#    hand in a Topics group of its catalog, and every page a page refers to exists.
step "Doc comments, Topics and references"
if [[ -f $merged/index.html ]]; then
    curated=()
    for module in "${modules[@]}"; do curated+=(--curated "$module"); done
    if ! swift "$root/Scripts/check-api-docs.swift" --work "$work" "${curated[@]}" \
        --catalogs Docs --site "$merged" "${modules[@]}"; then
        problems+=("public symbols with incomplete doc comments or missing from the Topics, or missing pages (above)")
    fi
else
    echo "skipped: no merged site"
fi

if [[ ${#problems[@]} -ne 0 ]]; then
    printf '\nThe API reference has problems; no site was written:\n' >&2
    printf '  %s\n' "${problems[@]}" >&2
    printf 'Full logs: %s\n' "$work/logs" >&2
    exit 1
fi
mv "$merged" "$site"

printf '\nAPI reference built in %ss: %s\n' "$((SECONDS - started))" "$site"
for module in "${modules[@]}"; do
    printf '  %s: %s/documentation/%s/\n' "$module" "$site" "$(tr '[:upper:]' '[:lower:]' <<<"$module")"
done
printf 'Serve it with any static web server, e.g.\n  python3 -m http.server --directory %s 8000\n' "$site"
printf '  then open http://localhost:8000/documentation/\n'
