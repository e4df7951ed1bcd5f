/// Why a service could not be resolved: what was asked, the path that led there, and the
/// likely fix.
///
/// Every `resolve` throws this type. Its ``description`` is written for the person who
/// reads it in a test failure or a crash log; each part is one line (the fix is one long
/// line, wrapped here):
///
/// ```text
/// ServiceRegistry could not resolve `ReviewService`: nothing is registered for it.
///   Resolution path: ReadingService → BookDetailService → ReviewService
///   Registered for this type: ReviewService (name: "offline")
///   Fix: register `ReviewService` (e.g. in its component's ServiceAssembly) with
///     registry.register(ReviewService.self) { r in ... }, or override it in the test
///     with withOverrides. If you meant one of the registrations above, resolve it with
///     that name or argument.
/// ```
///
/// What a factory threw (``Reason/factoryFailed``) is on the first line, unless its own
/// description takes several lines, such as a ``ResolutionError`` from a resolve through
/// the registry: then it goes below the first line, indented, and the resolution path
/// and fix at the error's own indentation are this error's.
public struct ResolutionError: Error, CustomStringConvertible {
    /// The kind of failure.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// Nothing is registered for the service type, name and argument type.
        case notRegistered
        /// The service depends, directly or through others, on itself.
        case circularDependency
        /// A registration exists for the type and name, but its factory takes a different
        /// argument type (or none, or one when none was given).
        case argumentMismatch
        /// The factory threw; ``ResolutionError/underlyingError`` holds what it threw.
        case factoryFailed

        /// The case name, such as `notRegistered`.
        public var description: String {
            switch self {
            case .notRegistered: "notRegistered"
            case .circularDependency: "circularDependency"
            case .argumentMismatch: "argumentMismatch"
            case .factoryFailed: "factoryFailed"
            }
        }
    }

    /// The kind of failure.
    public var reason: Reason { storage.value.reason }
    /// The service type that could not be resolved, as code outside it writes it:
    /// `ReviewService`, or `Catalog.Config` for a `Config` nested in `Catalog`; with its
    /// module (`Reviews.Config`) when another type on ``path`` reads the same.
    public var serviceType: String { storage.value.serviceType }
    /// The registration name that was asked for, if any.
    public var name: String? { storage.value.name }
    /// The chain of services being built, outermost first, ending with the one that
    /// failed (for a cycle: ending with the service met again).
    ///
    /// Each is written as ``serviceType`` is; two different types that read the same
    /// (two components' `Config`, one resolving the other) are written with their modules
    /// (`Reviews.Config → Catalog.Config`), so the path never reads as a cycle that is none.
    public var path: [String] { storage.value.path }
    /// The argument type given to `resolve`, or `nil` when none was given.
    ///
    /// Argument types are written as ``serviceType`` is, unless two of the types an error
    /// shows read the same (two components' `Config`): then with their modules
    /// (`Reviews.Config`, `Catalog.Config`).
    public var givenArgumentType: String? { storage.value.givenArgumentType }
    /// For ``Reason/argumentMismatch``: the argument types of the registrations that
    /// exist for the type and name (`nil` entries are factories without an argument),
    /// written as ``givenArgumentType`` is.
    public var registeredArgumentTypes: [String?] { storage.value.registeredArgumentTypes }
    /// For ``Reason/notRegistered``: registrations that look like what was meant (the same
    /// type under another name, or with an argument).
    public var similarRegistrations: [String] { storage.value.similarRegistrations }
    /// For ``Reason/factoryFailed``: the error the factory threw.
    public var underlyingError: (any Error)? { storage.value.underlyingError }
    /// Extra context, such as the other thread's part in a cross-thread cycle, that a
    /// parent's `.singleton` or `.weak` service on the path cannot see a service only a
    /// child provides, how to wrap the real service in an override, or that the given
    /// argument's type only converts to the registered one (and how to pass it as that), or
    /// that a registered `Any.Type` argument is likely a factory's argument written without
    /// its type, or that a given and a registered argument type that read the same are two
    /// types (local types of one name).
    public var note: String? { storage.value.note }
    /// The registrations on ``path``, outermost first (the last entry of ``path`` has none
    /// when nothing is registered for it): tells a resolve's error that runs through a
    /// factory's service from one the factory got elsewhere, even when two services on the
    /// path read the same.
    var registrations: [RegistrationIdentity] { storage.value.registrations }
    /// For ``Reason/circularDependency``: what the loop is, which decides the fix.
    var cycle: Cycle { storage.value.cycle }
    /// The services on ``path`` whose registrations there are overrides, as the path
    /// writes them: the path alone reads as the registry's own services, whose factories
    /// may not resolve what the override's did, or throw what it threw.
    var overridesOnPath: [String] { storage.value.overridesOnPath }

    /// Everything the error holds, behind one reference, so that the error is one word wide.
    /// Every `resolve` is inlined into the app's code, which moves a failed resolve's error
    /// up, and a factory's `try r.resolve(...)` also boxes it as `any Error`: with the fields
    /// inline, each such call site copied them one by one. In a release build of 200
    /// factories making 1,096 resolves, that was 1.42 KB of machine code for each resolve;
    /// it is 0.47 KB with one reference (Docs/Performance.md, *Code size*).
    private let storage: SharedBox<Fields>

    private struct Fields: Sendable {
        let reason: Reason
        let serviceType: String
        let name: String?
        let path: [String]
        let givenArgumentType: String?
        let registeredArgumentTypes: [String?]
        let similarRegistrations: [String]
        let underlyingError: (any Error)?
        let note: String?
        let registrations: [RegistrationIdentity]
        let cycle: Cycle
        let overridesOnPath: [String]
    }

    /// The shape of a cycle, as far as the fix needs it.
    enum Cycle: Sendable {
        /// Services that depend on each other, or a loop whose services in between the
        /// path may leave out.
        case loop
        /// A factory resolved its own service, through its resolver; `takesArgument` when
        /// that registration's factory takes an argument.
        case ownFactory(takesArgument: Bool)
        /// An override's factory resolved the service it overrides (to wrap the real one);
        /// `takesArgument` when the override's factory takes an argument.
        case overrideOwnFactory(takesArgument: Bool)
    }

    /// - Parameters:
    ///   - path: The registrations being built, outermost first.
    ///   - requested: The service type asked for at the end of `path` (under `name`) when
    ///     nothing is registered for it; `nil` when `path` ends with the service.
    init(
        reason: Reason, serviceType: String, name: String?, path: [AnyRegistration], requested: Any.Type? = nil,
        givenArgumentType: String? = nil, registeredArgumentTypes: [String?] = [],
        similarRegistrations: [String] = [], underlyingError: (any Error)? = nil, note: String? = nil,
        cycle: Cycle = .loop
    ) {
        let (shownPath, shownService, sameName) = Self.names(
            of: path, requested: requested, name: name, serviceType: serviceType)
        // Two types on the path that read the same even in full: local types of one name.
        let note = ResolutionError.notes(
            note,
            sameName.map {
                "`\($0)` names two types on this path: local types of one name, declared in different functions, "
                    + "read the same."
            })
        var overrides: [String] = []
        for (registration, shown) in zip(path, shownPath)
        where registration.origin == Installing.overrideRegistration && !overrides.contains(shown) {
            overrides.append(shown)
        }
        storage = SharedBox(
            Fields(
                reason: reason, serviceType: shownService, name: name, path: shownPath,
                givenArgumentType: givenArgumentType, registeredArgumentTypes: registeredArgumentTypes,
                similarRegistrations: similarRegistrations, underlyingError: underlyingError, note: note,
                registrations: path.map(RegistrationIdentity.init), cycle: cycle, overridesOnPath: overrides))
    }

    /// The entries of the path, and the service type, as the messages write them: each
    /// type as code outside it writes it, unless two different types on the path read the
    /// same (a `Config` whose factory resolves another component's `Config`), which are
    /// then written with their modules, as argument types are
    /// (``TypeName/distinguishing(_:)``). Otherwise `Config → Config` would read as a
    /// cycle, and the fix would name a type that is registered already. Two that read the
    /// same even so (local types of one name, which the runtime names without their
    /// functions) are returned as `sameName`, for a note to say they are two types.
    private static func names(
        of path: [AnyRegistration], requested: Any.Type?, name: String?, serviceType: String
    ) -> (path: [String], serviceType: String, sameName: String?) {
        let types = path.map(\.serviceType) + (requested.map { [$0] } ?? [])
        let names = path.map(\.key.name) + (requested == nil ? [] : [name])
        let shown = TypeName.distinguishing(types)
        let service = types.last.map { TypeName.of($0) == serviceType ? shown[shown.count - 1] : serviceType }
        var typesByName: [String: ObjectIdentifier] = [:]
        let sameName = zip(shown, types).first { shownName, type in
            typesByName.updateValue(ObjectIdentifier(type), forKey: shownName).map { $0 != ObjectIdentifier(type) }
                ?? false
        }?.0
        return (zip(shown, names).map { TypeName.describe($0, name: $1) }, service ?? serviceType, sameName)
    }

    /// What was asked, the resolution path, and the likely fix, on several lines.
    public var description: String {
        let service = describedService
        var lines: [String] = []
        switch reason {
        case .notRegistered:
            let argument = givenArgumentType.map { " taking an argument of type `\($0)`" } ?? ""
            lines.append("ServiceRegistry could not resolve `\(service)`: nothing is registered for it\(argument).")
        case .circularDependency:
            lines.append("ServiceRegistry could not resolve `\(service)`: it depends on itself (a circular dependency).")
        case .argumentMismatch:
            let given = givenArgumentType.map { "an argument of type `\($0)`" } ?? "no argument"
            let registered = registeredArgumentTypes.map { $0.map { "`\($0)`" } ?? "no argument" }
            lines.append(
                "ServiceRegistry could not resolve `\(service)`: it was asked with \(given), "
                    + "but it is registered with \(registered.joined(separator: " and with "))."
            )
        case .factoryFailed:
            if let thrown = thrownLines {
                lines.append("ServiceRegistry could not resolve `\(service)`: its factory threw:")
                lines += thrown.map { "    " + $0 }
            } else {
                let thrown = thrownText ?? "an error"
                // A message that ends its own sentence gets no second full stop.
                let end = thrown.hasSuffix(".") ? "" : "."
                lines.append("ServiceRegistry could not resolve `\(service)`: its factory threw \(thrown)\(end)")
            }
        }
        lines.append("  Resolution path: \(path.joined(separator: " → "))")
        if let overrides = overridesText {
            lines.append("  \(overrides)")
        }
        if let note {
            lines.append("  \(note)")
        }
        if !similarRegistrations.isEmpty {
            lines.append("  Registered for this type: \(similarRegistrations.joined(separator: ", "))")
        }
        lines.append("  Fix: \(fix)")
        return lines.joined(separator: "\n")
    }

    /// The likely fix. Its code is Swift as one would write it: the name as a string
    /// literal (quotes and backslashes escaped) and the type as a metatype expression.
    private var fix: String {
        let nameArgument = name.map { ", name: \(TypeName.literal($0))" } ?? ""
        let metatype = TypeName.metatypeExpression(serviceType)
        switch reason {
        case .notRegistered:
            let closure = givenArgumentType.map { "{ (r, argument: \($0)) in ... }" } ?? "{ r in ... }"
            var text =
                "register `\(serviceType)` (e.g. in its component's ServiceAssembly) with "
                + "registry.register(\(metatype)\(nameArgument)) \(closure), "
                + "or override it in the test with withOverrides."
            if !similarRegistrations.isEmpty {
                text += " If you meant one of the registrations above, resolve it with that name or argument."
            }
            return text
        case .circularDependency:
            let service = describedService
            switch cycle {
            case .loop:
                return "break the cycle: let one of these services resolve the other later "
                    + "(keep the registry and resolve on first use) instead of in its factory, "
                    + "or pass the value it needs as a resolve argument."
            case .ownFactory(let takesArgument):
                let argument = takesArgument ? ", argument: ..." : ""
                return "the factory of `\(service)` resolves `\(service)` itself: build what it needs without "
                    + "resolving its own service, or, to wrap another implementation of it, register that one under "
                    + "a name of its own and resolve it by that name (r.resolve(\(metatype), name: \"base\"\(argument)))."
            case .overrideOwnFactory(let takesArgument):
                // Resolving it later, as for a loop, would meet the override again.
                let argument = takesArgument ? ", argument: ..." : ""
                return "resolve the real `\(service)` in the configure closure "
                    + "(let real = try registry.resolve(\(metatype)\(nameArgument)\(argument))) and capture `real` in "
                    + "the override's factory instead of resolving it there."
            }
        case .argumentMismatch:
            let wanted = registeredArgumentTypes.first.flatMap { $0 }
            let alternative = givenArgumentType.map { "an argument of type `\($0)`" } ?? "no argument"
            // Almost always a factory whose argument was written without its type (see the
            // note): resolving with a metatype is not what was meant.
            if wanted == "Any.Type", registeredArgumentTypes.count == 1, let given = givenArgumentType {
                return "write the type of the factory's argument, as in `{ (r, id: \(given)) in ... }`, "
                    + "so that it takes \(alternative)."
            }
            if let wanted {
                return "resolve it with an argument of type `\(wanted)`: "
                    + "registry.resolve(\(metatype)\(nameArgument), argument: ...), "
                    + "or register a factory that takes \(alternative)."
            }
            return "resolve it without an argument: registry.resolve(\(metatype)\(nameArgument)), "
                + "or register a factory that takes \(alternative)."
        case .factoryFailed:
            return "the factory of `\(describedService)` failed; "
                + "fix what it threw, shown \(thrownLines == nil ? "on the first line" : "above") "
                + "(and kept in `underlyingError`)."
        }
    }

    /// Which services on the path are overrides, so that the reader looks for their
    /// factories in the test rather than in the app's assemblies; `nil` when none is, or
    /// when the note for an override met in its own factory says so already.
    private var overridesText: String? {
        guard !overridesOnPath.isEmpty else { return nil }
        if case .overrideOwnFactory = cycle { return nil }
        let services = overridesOnPath.map { "`\($0)`" }
        guard let last = services.last, services.count > 1 else {
            return "\(services[0]) on this path is an override: its factory is the one registered in withOverrides "
                + "(or an .overriding trait)."
        }
        return "\(services.dropLast().joined(separator: ", ")) and \(last) on this path are overrides: their factories "
            + "are the ones registered in withOverrides (or an .overriding trait)."
    }

    /// `ReviewService` or `ReviewService (name: "offline")`: the service, as the messages name it.
    private var describedService: String { TypeName.describe(serviceType, name: name) }

    /// The lines of what the factory threw when its description takes more than one (a
    /// ``ResolutionError`` from a resolve through the registry, with its own path and fix):
    /// they go below the first line, indented, so that this error's path and fix are the
    /// only ones at its own indentation. Any line break counts, not only `"\n"`: a `"\r\n"`
    /// is one `Character` that is not `"\n"`, and it, a bare `"\r"` or a U+2028 left on
    /// the first line would start a line of the thrown text at this error's indentation.
    private var thrownLines: [Substring]? {
        guard let thrownText else { return nil }
        let lines = thrownText.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        return lines.count > 1 ? lines : nil
    }

    /// What the factory threw, as the message shows it: its text, or its type when that
    /// text is empty or blank (the first line would read "its factory threw ." and show
    /// nothing of what the fix says it shows); `nil` when it threw nothing.
    private var thrownText: String? {
        guard let underlyingError else { return nil }
        let text = TypeName.describeError(underlyingError)
        guard text.allSatisfy(\.isWhitespace) else { return text }
        return "a `\(TypeName.of(type(of: underlyingError)))` with \(text.isEmpty ? "an empty" : "a blank") description"
    }
}

extension ResolutionError: CustomReflectable {
    /// The public properties, as `dump(_:)` and debuggers show them: the error keeps them
    /// behind one reference, which a mirror of its stored properties would show instead.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "reason": reason, "serviceType": serviceType, "name": name as Any, "path": path,
                "givenArgumentType": givenArgumentType as Any, "registeredArgumentTypes": registeredArgumentTypes,
                "similarRegistrations": similarRegistrations, "underlyingError": underlyingError as Any,
                "note": note as Any,
            ],
            displayStyle: .struct)
    }
}
