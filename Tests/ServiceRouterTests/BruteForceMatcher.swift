// The oracle's matcher, shared by TrieOracleTests and the fuzz target:
// Tests/Fuzz/run-router-fuzzer.sh compiles this file into the ServiceRouter module itself,
// with ROUTER_FUZZ defined, so it must not import that module there.
#if !ROUTER_FUZZ
@testable import ServiceRouter
#endif

/// Whether `pattern` matches `url`, found by walking the pattern's segments one by one,
/// with none of the trie's indexing or pruning.
func bruteForceMatches(_ pattern: RoutePattern, _ url: RouteURL) -> Bool {
    guard pattern.scheme == url.scheme, pattern.hasAuthority == (url.host != nil) else { return false }
    var position = 0
    for segment in pattern.segments {
        switch segment {
        case .wildcard:
            return SegmentTrie<Route>.meetsRequirements(pattern, url)
        case .literal(let text):
            guard position < url.matchSegmentCount, url.matchSegment(at: position) == text else { return false }
        case .parameter(_, let type):
            guard position < url.matchSegmentCount else { return false }
            if let type, !type.accepts(url.matchSegment(at: position)) { return false }
        }
        position += 1
    }
    return position == url.matchSegmentCount && SegmentTrie<Route>.meetsRequirements(pattern, url)
}
