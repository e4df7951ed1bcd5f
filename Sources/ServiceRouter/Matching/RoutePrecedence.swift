/// The router's precedence rule, as one deterministic total order on routes.
///
/// When several routes match one URL, the winner is decided by, in turn:
/// 1. the segments from left to right: literal > typed parameter > plain parameter >
///    wildcard (a pattern that ends exactly where the URL ends beats a wildcard that
///    would match nothing there);
/// 2. the query and fragment requirements: more literal requirements, then more typed
///    captures, then more plain captures;
/// 3. the explicit `priority`, higher first;
/// 4. the patterns' shapes, what they match (``RoutePattern/compareShapes(_:_:)``: literal
///    text and parameter types, piece by piece, without parameter names), so that neither
///    the registration order nor how a parameter is named decides.
///
/// Routes that tie on all four have one shape and one priority: they match the same URLs
/// in the same way, so the trie keeps only the later one.
enum RoutePrecedence {
    /// Whether `lhs` is tried before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: A route's pattern and priority.
    ///   - rhs: Another route's pattern and priority.
    /// - Returns: `true` when `lhs` wins.
    static func precedes(_ lhs: (RoutePattern, Int), _ rhs: (RoutePattern, Int)) -> Bool {
        switch compareSegments(lhs.0, rhs.0) {
        case .some(let lhsWins): return lhsWins
        case nil: return precedesAtSameNode(lhs, rhs)
        }
    }

    /// The part of ``precedes(_:_:)`` after the segments, for routes that end in the same
    /// trie node (their segment kinds are then equal).
    static func precedesAtSameNode(_ lhs: (RoutePattern, Int), _ rhs: (RoutePattern, Int)) -> Bool {
        let lhsRank = constraintRank(lhs.0)
        let rhsRank = constraintRank(rhs.0)
        if lhsRank != rhsRank {
            return lhsRank.literal != rhsRank.literal ? lhsRank.literal > rhsRank.literal
                : lhsRank.typed != rhsRank.typed ? lhsRank.typed > rhsRank.typed
                : lhsRank.plain > rhsRank.plain
        }
        if lhs.1 != rhs.1 { return lhs.1 > rhs.1 }
        return RoutePattern.compareShapes(lhs.0, rhs.0) == .before
    }

    /// Compares segment kinds left to right; `nil` when they are all equal.
    private static func compareSegments(_ lhs: RoutePattern, _ rhs: RoutePattern) -> Bool? {
        for (left, right) in zip(lhs.segments, rhs.segments) where left.kind != right.kind {
            return left.kind < right.kind
        }
        if lhs.segments.count == rhs.segments.count { return nil }
        // The longer pattern continues where the shorter one ended. For both to match one
        // URL the continuation must be a wildcard matching nothing, which the exact end beats.
        return lhs.segments.count < rhs.segments.count
    }

    private struct ConstraintRank: Equatable {
        var literal = 0
        var typed = 0
        var plain = 0
    }

    private static func constraintRank(_ pattern: RoutePattern) -> ConstraintRank {
        var rank = ConstraintRank()
        func count(_ constraint: ValueConstraint) {
            switch constraint {
            case .literal: rank.literal += 1
            case .capture(_, let type): if type == nil { rank.plain += 1 } else { rank.typed += 1 }
            }
        }
        pattern.query.forEach { count($0.value) }
        pattern.fragment.map(count)
        return rank
    }
}
