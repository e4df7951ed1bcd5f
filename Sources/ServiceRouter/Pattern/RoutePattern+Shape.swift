extension RoutePattern {
    /// Where one pattern's shape sorts against another's.
    enum ShapeOrder: Sendable {
        case before, same, after
    }

    /// Compares two patterns by their shape: what they match, which is the pattern with its
    /// parameter names left out.
    ///
    /// The scheme, whether there is a host, then each segment (its kind, a literal's decoded
    /// text, a typed parameter's type), then each required query item (its name, a literal
    /// value's text, a capture's type) and the fragment (the same) are compared in turn;
    /// the names of parameters and wildcards are not. So `weread://book/:id` and
    /// `weread://book/:bookID` have one shape, and so do `?q`, `?q=:q` and `?q=:text`, while
    /// `:id(int)` and `:id`, or `?tab=reviews` and `?tab=:tab`, do not. Patterns of one shape
    /// match the same URLs, take the same trie path and rank alike, so a router keeps one
    /// route per shape and priority. Literals compare as Swift strings, by canonical
    /// equivalence, as matching compares them.
    ///
    /// The order is total on shapes, and nothing is allocated: it is the last tie-breaker of
    /// ``RoutePrecedence``, so it also runs while matching.
    ///
    /// - Parameters:
    ///   - lhs: A pattern.
    ///   - rhs: Another pattern.
    /// - Returns: ``ShapeOrder/same`` when the two differ at most in parameter names.
    static func compareShapes(_ lhs: RoutePattern, _ rhs: RoutePattern) -> ShapeOrder {
        var order = compare(lhs.scheme, rhs.scheme)
        if order != .same { return order }
        order = compare(lhs.hasAuthority ? 1 : 0, rhs.hasAuthority ? 1 : 0)
        if order != .same { return order }
        order = compareSequences(lhs.segments, rhs.segments, by: compareSegments)
        if order != .same { return order }
        order = compareSequences(lhs.query, rhs.query) { left, right in
            let names = compare(left.name, right.name)
            return names != .same ? names : compareConstraints(left.value, right.value)
        }
        if order != .same { return order }
        switch (lhs.fragment, rhs.fragment) {
        case (nil, nil): return .same
        case (nil, _?): return .before
        case (_?, nil): return .after
        case (let left?, let right?): return compareConstraints(left, right)
        }
    }

    private static func compareSegments(_ lhs: PatternSegment, _ rhs: PatternSegment) -> ShapeOrder {
        let kinds = compare(lhs.kind, rhs.kind)
        if kinds != .same { return kinds }
        switch (lhs, rhs) {
        case (.literal(let left), .literal(let right)):
            return compare(left, right)
        case (.parameter(_, let left), .parameter(_, let right)):
            return compareTypes(left, right)
        default:
            // Plain parameters, or wildcards: the kind says all that matters.
            return .same
        }
    }

    /// Literal values first, then captures by type, an untyped one first.
    private static func compareConstraints(_ lhs: ValueConstraint, _ rhs: ValueConstraint) -> ShapeOrder {
        switch (lhs, rhs) {
        case (.literal(let left), .literal(let right)): compare(left, right)
        case (.literal, .capture): .before
        case (.capture, .literal): .after
        case (.capture(_, let left), .capture(_, let right)): compareTypes(left, right)
        }
    }

    /// Types are told apart by name, as the trie's edges are: a router's type names are unique.
    private static func compareTypes(_ lhs: ParameterType?, _ rhs: ParameterType?) -> ShapeOrder {
        switch (lhs, rhs) {
        case (nil, nil): .same
        case (nil, _?): .before
        case (_?, nil): .after
        case (let left?, let right?): compare(left.name, right.name)
        }
    }

    /// Compares element by element; a sequence that is a prefix of the other sorts first.
    private static func compareSequences<Element>(
        _ lhs: [Element], _ rhs: [Element], by compareElements: (Element, Element) -> ShapeOrder
    ) -> ShapeOrder {
        for (left, right) in zip(lhs, rhs) {
            let order = compareElements(left, right)
            if order != .same { return order }
        }
        return compare(lhs.count, rhs.count)
    }

    private static func compare<Value: Comparable>(_ lhs: Value, _ rhs: Value) -> ShapeOrder {
        lhs < rhs ? .before : lhs == rhs ? .same : .after
    }
}
