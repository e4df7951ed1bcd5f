/// Formats type names for errors, listings and graphs (never on the resolve path).
enum TypeName {
    /// `ReviewService` for `(any ReviewService).self`, `(String, Int)` for a tuple.
    static func of(_ type: Any.Type) -> String {
        let name = String(describing: type)
        return name.hasPrefix("any ") ? String(name.dropFirst(4)) : name
    }

    /// `ReviewService` or `ReviewService (name: "offline")`.
    static func describe(_ typeName: String, name: String?) -> String {
        guard let name else { return typeName }
        return "\(typeName) (name: \(name.debugDescription))"
    }
}
