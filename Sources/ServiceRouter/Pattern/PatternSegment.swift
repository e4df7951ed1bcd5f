/// One segment of a route pattern (the host counts as the first segment when the pattern
/// has an authority).
enum PatternSegment: Sendable {
    /// Matches exactly this decoded text.
    case literal(String)
    /// `:name` or `:name(type)`: matches one segment (that `type` accepts), captured as `name`.
    case parameter(name: String, type: ParameterType?)
    /// `*` or `*name`: matches the rest of the path, zero or more segments.
    case wildcard(name: String?)

    /// The segment's rank for precedence.
    var kind: SegmentKind {
        switch self {
        case .literal: .literal
        case .parameter(_, let type): type == nil ? .plainParameter : .typedParameter
        case .wildcard: .wildcard
        }
    }
}

/// How specific a pattern segment is; a smaller raw value wins.
///
/// The order is the router's precedence rule: literal, then typed parameter, then plain
/// parameter, then wildcard.
enum SegmentKind: UInt8, Sendable, Comparable {
    case literal = 0
    case typedParameter = 1
    case plainParameter = 2
    case wildcard = 3

    static func < (lhs: SegmentKind, rhs: SegmentKind) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// What a pattern requires of one query item's value or of the fragment.
enum ValueConstraint: Sendable {
    /// The decoded value must equal this text.
    case literal(String)
    /// Any value (that `type` accepts) is captured as the parameter `name`.
    case capture(name: String, type: ParameterType?)
}

/// A query item a pattern requires, `?name=value`, `?name=:param(type)` or `?name`.
struct QueryConstraint: Sendable {
    /// The decoded item name.
    let name: String
    /// What its value must be.
    let value: ValueConstraint
}
