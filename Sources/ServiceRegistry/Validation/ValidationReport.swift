/// What ``ServiceRegistry/validate()`` or ``ServiceRegistry/validate(sampleArguments:)``
/// checked when every registration built.
///
/// ```swift
/// let report = try registry.validate()
/// print(report)   // ServiceRegistry validation passed: 12 registrations built. Not checked ...
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// The registrations that were built without error, sorted by name; one built with a
    /// sample argument shows its argument type, as `BookScreen (argument: String)`.
    public let built: [String]
    /// Registrations whose factories take an argument that none of the sample arguments
    /// fits, such as `BookScreen (argument: String)`: validation did not build them on
    /// their own (they ran only if a factory it built resolved them with an argument).
    /// Pass a sample of each one's argument type to
    /// ``ServiceRegistry/validate(sampleArguments:)`` to check them.
    public let notChecked: [String]
    /// The argument types of ``notChecked``'s registrations, sorted, each once.
    let missingSampleTypes: [String]

    /// How many were built, then the registrations not checked and the sample arguments
    /// that would check them. When every registration takes an argument and none was
    /// built, it says that nothing was checked rather than that validation passed.
    public var description: String {
        var text =
            built.isEmpty && !notChecked.isEmpty
            ? "ServiceRegistry validation checked nothing: no registration was built."
            : "ServiceRegistry validation passed: \(built.count) registration\(built.count == 1 ? "" : "s") built."
        if let notCheckedText = Self.notCheckedText(notChecked, missingSampleTypes: missingSampleTypes) {
            text += " " + notCheckedText
        }
        return text
    }

    /// The sentences that list the registrations not checked and say how to check them,
    /// for the report and for ``ValidationError``; `nil` when every one was checked.
    ///
    /// ```text
    /// Not checked (its factory takes an argument, and no sample of that type was given):
    /// BookScreen (argument: String). To check it, pass a sample `String` to
    /// validate(sampleArguments:).
    /// ```
    static func notCheckedText(_ notChecked: [String], missingSampleTypes: [String]) -> String? {
        guard !notChecked.isEmpty else { return nil }
        let one = notChecked.count == 1
        let samples = missingSampleTypes.map { "a sample `\($0)`" }
        let sampleList =
            samples.count > 1 ? samples.dropLast().joined(separator: ", ") + " and " + samples.last! : samples.joined()
        return "Not checked (\(one ? "its factory takes" : "their factories take") an argument, and no sample of "
            + "\(samples.count == 1 ? "that type" : "those types") was given): \(notChecked.joined(separator: ", ")). "
            + "To check \(one ? "it" : "them"), pass \(sampleList) to validate(sampleArguments:)."
    }
}
