/// Formats type names for errors, listings and graphs (never on the resolve path).
enum TypeName {
    /// `ReviewService` for `(any ReviewService).self`, `(String, Int)` for a tuple.
    static func of(_ type: Any.Type) -> String {
        let name = String(describing: type)
        return name.hasPrefix("any ") ? String(name.dropFirst(4)) : name
    }

    /// `WeReadInterfaces.ReviewService`: the type with its module and the types it is
    /// nested in. The part the runtime gives a private or local type's context,
    /// `(unknown context at $…).`, is left out: it holds an address that differs from run
    /// to run.
    static func qualified(_ type: Any.Type) -> String {
        var name = String(reflecting: type)
        if name.hasPrefix("any ") { name.removeFirst(4) }
        while let start = name.firstRange(of: "(unknown context at "),
            let end = name[start.upperBound...].firstIndex(of: ")")
        {
            let afterEnd = name.index(after: end)
            let dot = afterEnd < name.endIndex && name[afterEnd] == "." ? name.index(after: afterEnd) : afterEnd
            name.removeSubrange(start.lowerBound..<dot)
        }
        return name
    }

    /// How code names the metatype of the type called `typeName` (as ``of(_:)`` spells
    /// it): `ReviewService.self`, or `(Clock & ReviewService).self` and
    /// `((Int) -> String).self` for a composition or a function type, where `.self` would
    /// bind to the last part alone.
    static func metatypeExpression(_ typeName: String) -> String {
        let needsParentheses = typeName.contains(" & ") || typeName.contains(" -> ")
        return needsParentheses ? "(\(typeName)).self" : "\(typeName).self"
    }

    /// `ReviewService` or `ReviewService (name: "offline")`.
    static func describe(_ typeName: String, name: String?) -> String {
        guard let name else { return typeName }
        return "\(typeName) (name: \(name.debugDescription))"
    }
}
