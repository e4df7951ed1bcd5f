/// What ``ServiceRegistry/validate()`` checked when every registration built.
///
/// ```swift
/// let report = try registry.validate()
/// print(report)   // ServiceRegistry validation passed: 12 registrations built. Not checked ...
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// The registrations that were built without error, sorted by name.
    public let built: [String]
    /// Registrations whose factories take an argument, which validation does not build on
    /// their own (only when a factory it runs resolves one with an argument).
    public let notChecked: [String]

    /// How many were built, then the registrations not checked.
    public var description: String {
        var text = "ServiceRegistry validation passed: \(built.count) registration\(built.count == 1 ? "" : "s") built."
        if !notChecked.isEmpty {
            text += " Not checked (their factories take an argument): \(notChecked.joined(separator: ", "))"
        }
        return text
    }
}
