/// Every registration that failed to build during ``ServiceRegistry/validate()`` or
/// ``ServiceRegistry/validate(sampleArguments:)``.
///
/// Its ``description`` lists each failing registration with its reason and resolution
/// path, then the registrations validation could not check because their factories take
/// an argument that no sample argument fits, with the argument types to pass samples of.
public struct ValidationError: Error, CustomStringConvertible {
    /// A registration that failed to build, and why.
    public struct Failure: Sendable {
        /// The registration, such as `BookDetailService`, `ReviewService (name: "offline")`,
        /// `Catalog.Config` (a type nested in another) or, for one built with a sample
        /// argument, `BookScreen (argument: String)`; a type whose name another type
        /// shares, registered or asked for but missing, shows its full name, with its
        /// module (`Reviews.Config`), as in ``ServiceRegistry/dependencyGraph()``.
        public let registration: String
        /// Who registered it (an assembly's type name, `registered directly`, or `override`).
        public let origin: String
        /// The error building it threw, with its reason and path.
        public let error: ResolutionError
    }

    /// The registrations that failed, sorted by name.
    public let failures: [Failure]
    /// Registrations whose factories take an argument that none of the sample arguments
    /// fits, such as `BookScreen (argument: String)`: validation did not build them on
    /// their own (they ran only if a factory it built resolved them with an argument).
    /// Pass a sample of each one's argument type to
    /// ``ServiceRegistry/validate(sampleArguments:)`` to check them.
    public let notChecked: [String]
    /// How many registrations were built without error.
    public let passedCount: Int
    /// The argument types of ``notChecked``'s registrations, sorted, each once.
    let missingSampleTypes: [String]

    /// One paragraph per failure, then the registrations not checked and the sample
    /// arguments that would check them.
    public var description: String {
        var lines = [
            "ServiceRegistry validation failed: \(failures.count) of \(failures.count + passedCount) "
                + "registrations could not be built."
        ]
        for failure in failures {
            lines.append("")
            lines.append("✗ \(failure.registration) [\(failure.origin)] — \(failure.error.reason)")
            for line in failure.error.description.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append("    " + line)
            }
        }
        if let notCheckedText = ValidationReport.notCheckedText(notChecked, missingSampleTypes: missingSampleTypes) {
            lines.append("")
            lines.append(notCheckedText)
        }
        return lines.joined(separator: "\n")
    }
}
