import ServiceRegistry

/// Why the router could not parse, match or open a URL, or could not accept a pattern.
///
/// Every failure of ``ServiceRouter`` is one of these values (the router's methods use
/// typed throws), so callers can switch over ``reason`` and nothing a URL contains can
/// crash the app. The ``description`` says what was asked, what was wrong and how to
/// fix it:
///
/// ```swift
/// do {
///     try router.open("weread://book/abc", from: .external)
/// } catch {
///     if case .invalidParameter(let name, _, let expected, _) = error.reason {
///         print("\(name) must be \(expected)")   // "bookId must be an int"
///     }
///     print(error)   // the full explanation, including the URL
/// }
/// ```
public struct RouteError: Error, CustomStringConvertible {
    /// What went wrong.
    ///
    /// `indirect` keeps a reason one pointer wide, so reading ``RouteError/reason`` copies
    /// one reference, whatever the case holds.
    public indirect enum Reason: Sendable {
        /// The URL does not have the shape `scheme:[//host[:port]][/path][?query][#fragment]`.
        case malformedURL(problem: String)
        /// A `%` escape is cut short, has a non-hex digit, or spells invalid UTF-8.
        case invalidPercentEncoding(component: String, problem: String)
        /// The URL is longer than ``URLParsingOptions/maximumLength`` (in UTF-8 bytes). The
        /// description quotes only the start of a long one; ``RouteError/url`` keeps it all.
        case urlTooLong(length: Int, limit: Int)
        /// The URL has more path segments than ``URLParsingOptions/maximumSegmentCount``.
        case tooManySegments(limit: Int)
        /// The URL has more query items than ``URLParsingOptions/maximumQueryItemCount``.
        case tooManyQueryItems(limit: Int)
        /// An external URL uses a scheme outside ``ServiceRouter/Configuration/allowedExternalSchemes``
        /// (by default: a scheme without a route outside URLs may open, such as one whose
        /// routes are all in-app only, and without a scheme fallback).
        case schemeNotAllowed(scheme: String, allowed: [String])
        /// An in-app-only route matches an external URL that no public route takes: none
        /// matches it, or each that does declined it. No fallback runs.
        case inAppOnly(pattern: String)
        /// No route matches and no fallback is set for the URL's scheme or globally (or,
        /// thrown by ``ServiceRouter/match(_:from:)``, which does not consult fallbacks,
        /// whether or not one is; its description then says so).
        case noRoute
        /// A parameter's value does not fit its declared type, or a required query item or
        /// fragment is missing (`value` is `nil`). `pattern` is the route that came closest.
        /// URL generation throws it too, for a value that does not fit, or one of the
        /// pattern's parameters left out of `parameters` (`value` is `nil`; a name the pattern
        /// lacks is ``missingParameter(name:pattern:)`` instead).
        case invalidParameter(name: String, value: String?, expected: String, pattern: String?)
        /// A handler (or URL generation) asked for a parameter the route does not have; the
        /// description lists the names it has, so a typo shows. `pattern` is `"fallback"`
        /// when a fallback's handler asked: its request has no parameters.
        case missingParameter(name: String, pattern: String?)
        /// The route matched, but its service could not be resolved from the registry.
        /// `pattern` is `"fallback"` when it was a fallback's service.
        case serviceUnavailable(ResolutionError, pattern: String)
        /// The route matched, but its handler threw, or its `argument:` closure (which
        /// makes the service's resolve argument from the request) did, before the service
        /// was resolved. A `RouteError` either throws is passed on as it is instead.
        /// `pattern` is `"fallback"` when a fallback's handler threw.
        case handlerFailed(any Error, pattern: String)
        /// Every matching route declined the URL (`patterns`, in the order tried; empty
        /// when no route matches) and no fallback took it: none is set, or each declined.
        case declined(patterns: [String])
        /// ``ServiceRouter/open(_:as:from:)`` asked for a result of a different type than the
        /// handler returned. The types are written as code writes them (`(Int, Int)`,
        /// `Shelf.Slot`), with their modules only when the two read the same.
        case resultTypeMismatch(expected: String, actual: String, pattern: String?)
        /// A route pattern could not be read, or only URLs over the router's
        /// ``URLParsingOptions`` limits could match it.
        case invalidPattern(pattern: String, problem: String)
        /// A custom ``ParameterType`` cannot be used, so no pattern is read with it and its
        /// fellows until it is fixed: its name is not one or more letters, digits or `_` (no
        /// pattern could name it), is a built-in type's, or is another custom type's.
        case invalidParameterType(name: String, problem: String)
        /// URL generation was given an extra query item named like one the pattern fixes or
        /// captures, with another value than the pattern's (`value` is `nil` for an item
        /// without `=`): a URL opened reads only the first item of a name, so it would be lost.
        case conflictingQueryItem(name: String, value: String?, pattern: String)
        /// URL generation was given an extra query item with neither a name nor a value
        /// (`QueryItem(name: "", value: nil)`): a URL has no text for one (`?` alone, or
        /// `&&`, reads as no item), so it would be lost. One with an empty name and a value
        /// (`?=x`, or `?=` for an empty value) is written and read back as given.
        case emptyQueryItem(pattern: String)
        /// URL generation was given a fragment other than the one the pattern fixes or
        /// captures: a URL has one fragment, so it would be lost.
        case conflictingFragment(value: String, pattern: String)
    }

    /// What went wrong.
    public var reason: Reason { storage.value.reason }
    /// The URL being parsed or opened, when there was one.
    public var url: String? { storage.value.url }
    /// Whether ``ServiceRouter/match(_:from:)`` threw this for a URL no route takes that
    /// opening would hand to a fallback: the text must then not say it cannot be opened.
    var fallbackNotConsulted: Bool {
        get { storage.value.fallbackNotConsulted }
        set { update { $0.fallbackNotConsulted = newValue } }
    }
    /// For ``Reason/missingParameter(name:pattern:)``: the names the route does have, in
    /// its pattern's order, so the description can show the one a typo meant; `nil` when
    /// the error was made without them.
    var declaredNames: [String]? {
        get { storage.value.declaredNames }
        set { update { $0.declaredNames = newValue } }
    }
    /// For ``Reason/schemeNotAllowed(scheme:allowed:)`` under the default allow-list: the
    /// scheme has routes, but every one is in-app only, which is why it is not allowed.
    var schemeRoutesAreInAppOnly: Bool {
        get { storage.value.schemeRoutesAreInAppOnly }
        set { update { $0.schemeRoutesAreInAppOnly = newValue } }
    }
    /// For ``Reason/noRoute``: every route of the URL's scheme is written with a host
    /// (`true`: `scheme://host/...`) or without one (`false`: `scheme:path`), and the URL
    /// has the other form, so no route of its scheme can match it.
    var routesOfSchemeHaveHost: Bool? {
        get { storage.value.routesOfSchemeHaveHost }
        set { update { $0.routesOfSchemeHaveHost = newValue } }
    }
    /// For ``Reason/noRoute``: the URL has an empty host (`weread:///book/42`), and a route
    /// opens it with its first path segment as the host: that URL (`weread://book/42`) and
    /// the route's pattern.
    var emptyHostRespelling: (url: String, pattern: String)? {
        get { storage.value.emptyHostRespelling }
        set { update { $0.emptyHostRespelling = newValue } }
    }
    /// For ``Reason/noRoute``: the pattern of a route that opens the URL with its path in
    /// lower case (`weread://book/reviews` for `weread://book/Reviews`).
    var routeForPathInLowercase: String? {
        get { storage.value.routeForPathInLowercase }
        set { update { $0.routeForPathInLowercase = newValue } }
    }
    /// For ``Reason/invalidParameter(name:value:expected:pattern:)`` from opening a URL that
    /// lacks a part the route requires, which one, so the description can say how to make
    /// it optional.
    var missingPart: MissingPart? {
        get { storage.value.missingPart }
        set { update { $0.missingPart = newValue } }
    }

    /// A part of a URL a route requires and the URL lacks.
    enum MissingPart {
        case queryItem
        case fragment
    }
    /// For ``Reason/conflictingQueryItem(name:value:pattern:)`` and
    /// ``Reason/conflictingFragment(value:pattern:)``: what the pattern says of that part,
    /// so the description can say where its value comes from instead.
    var patternConstraint: ValueConstraint? {
        get { storage.value.patternConstraint }
        set { update { $0.patternConstraint = newValue } }
    }

    /// Everything the error holds, behind one reference, so that the error is one word wide.
    /// The app's code receives it from every router call that throws (`open`, `match`,
    /// `url(for:)`, `register`, a request's `parameters.int(_:)`...) and, where it throws
    /// untyped, as in a route's handler, boxes it as `any Error`. With the fields inline (73
    /// bytes), each such call site copied them one by one: in a release build, a
    /// `try router.open(url)` was 222 bytes of machine code and a handler's
    /// `try request.parameters.int("id")` 274; they are 80 and 120 with one reference
    /// (Docs/Performance.md, *Code size*).
    private var storage: SharedBox<Fields>

    private struct Fields: Sendable {
        let reason: Reason
        let url: String?
        var fallbackNotConsulted = false
        var declaredNames: [String]?
        var schemeRoutesAreInAppOnly = false
        var routesOfSchemeHaveHost: Bool?
        var missingPart: MissingPart?
        var emptyHostRespelling: (url: String, pattern: String)?
        var routeForPathInLowercase: String?
        var patternConstraint: ValueConstraint?
    }

    /// Changes a field of an error being made; only the router does, before it throws it.
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.value
        change(&fields)
        storage = SharedBox(fields)
    }

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - url: The URL being parsed or opened, if any.
    public init(_ reason: Reason, url: String? = nil) {
        storage = SharedBox(Fields(reason: reason, url: url))
    }

    /// A ``Reason/missingParameter(name:pattern:)`` error whose description lists the
    /// names the route declares.
    static func missingParameter(_ name: String, pattern: String?, declared: [String], url: String?) -> RouteError {
        var error = RouteError(.missingParameter(name: name, pattern: pattern), url: url)
        error.declaredNames = declared
        return error
    }

    /// What an error of ``ServiceRouter/match(_:from:)`` adds when opening would have
    /// handed the URL to a fallback.
    static let fallbackNotConsultedNote = "Opening it would run a fallback, which match(_:from:) does not consult."

    /// The `pattern` of an error a fallback caused. No route's pattern can be this: every
    /// canonical pattern has a scheme and so a `:`.
    static let fallbackPattern = "fallback"

    /// What was asked, what was wrong and the likely fix.
    public var description: String {
        // Characters one cannot see are escaped: a newline would break the message. So they
        // are in a problem, which quotes parts of the URL or pattern (a host, a segment): a
        // zero-width space there would hide what is wrong with it.
        let url = url.map { TypeName.visible(Self.shown($0, reason)) }
        let subject = url.map { "'\($0)'" } ?? "the URL"
        switch reason {
        case .malformedURL(let problem):
            return "Cannot read \(subject) as a URL: \(TypeName.visible(problem))."
        case .invalidPercentEncoding(let component, let problem):
            return "Cannot read \(subject): the \(TypeName.visible(component)) has bad percent-encoding (\(problem)). "
                + "An escape is '%' and two hex digits of UTF-8; write a literal '%' as '%25'."
        case .urlTooLong(let length, let limit):
            return "Refused \(subject): it is \(length) bytes long, over the limit of \(limit). "
                + "Raise URLParsingOptions.maximumLength if such URLs are expected."
        case .tooManySegments(let limit):
            return "Refused \(subject): it has more than \(Self.count(limit, "path segment")). "
                + "Raise URLParsingOptions.maximumSegmentCount if such URLs are expected."
        case .tooManyQueryItems(let limit):
            return "Refused \(subject): it has more than \(Self.count(limit, "query item")). "
                + "Raise URLParsingOptions.maximumQueryItemCount if such URLs are expected."
        case .schemeNotAllowed(let scheme, let allowed) where schemeRoutesAreInAppOnly:
            let list = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
            // Listing the scheme would also let its unmatched URLs reach the global fallback,
            // which is what marking every route in-app only keeps out; so the fix is a route.
            return "Refused external URL \(subject): the scheme '\(scheme)' is not allowed, since every route of it "
                + "is in-app only (allowed: \(list)). If outside apps may open its URLs, register the routes they may "
                + "open without inAppOnly, or set a fallback for the scheme with setFallback(forScheme:)."
        case .schemeNotAllowed(let scheme, let allowed):
            let list = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
            // Without a list, the allowed schemes are those with routes outside URLs may open
            // or scheme fallbacks, and a list naming only this scheme would refuse them from then on.
            return "Refused external URL \(subject): the scheme '\(scheme)' is not allowed (allowed: \(list)). "
                + "If outside apps may open it, add it to Configuration.allowedExternalSchemes and keep the schemes "
                + "allowed now in that list (a list replaces the default: the schemes with routes that are not "
                + "in-app only, or with scheme fallbacks)."
        case .inAppOnly(let pattern):
            return "Refused external URL \(subject): route '\(pattern)' is in-app only. "
                + "Open it from app code (from: .inApp), or register it without inAppOnly if outside apps may open it."
        case .noRoute where routesOfSchemeHaveHost != nil:
            let scheme = schemeOfURL
            let form = routesOfSchemeHaveHost == true
                ? "with a host ('\(scheme)://host/path'), and this URL has no '//' after '\(scheme):'"
                : "without a host ('\(scheme):path'), and this URL has '//' after '\(scheme):'"
            let problemAndFix = "No route matches \(subject): every route of '\(scheme)' is written \(form). "
                + "Write the URL in the routes' form, or register a route for URLs in its form"
            // From match(_:from:), a fallback is set already: the note says it would run.
            if fallbackNotConsulted { return problemAndFix + ". " + Self.fallbackNotConsultedNote }
            return problemAndFix + " (or set a fallback with setFallback(forScheme:))."
        case .noRoute where emptyHostRespelling != nil:
            let scheme = schemeOfURL
            let respelling = emptyHostRespelling ?? (url: "", pattern: "")
            return noRoute(
                "No route matches \(subject): its host is empty, since more than two '/' follow '\(scheme):', "
                    + "and route '\(respelling.pattern)' opens the URL with two, '\(TypeName.visible(respelling.url))'",
                fix: "Write the URL so, or register a route for it")
        case .noRoute where routeForPathInLowercase != nil:
            return noRoute(
                "No route matches \(subject): a path is matched letter for letter, unlike the scheme and host, and route "
                    + "'\(routeForPathInLowercase ?? "")' opens the URL with its path in lower case",
                fix: "Write the path as the route does, or register a route for this spelling")
        case .noRoute where fallbackNotConsulted:
            return "No route matches \(subject). " + Self.fallbackNotConsultedNote
        case .noRoute:
            return "No route matches \(subject) and no fallback is set for its scheme. "
                + "Register a route for it or set a fallback with setFallback(forScheme:)."
        case .invalidParameter(let name, let value, let expected, let pattern):
            let route = pattern.map { " of route '\($0)'" } ?? ""
            // Without a URL the error comes from building one (url(for:)), not from opening;
            // a value left out is then the caller's to add.
            let absent = url == nil
                ? "no value was given: pass one in parameters: [\(TypeName.literal(name)): …]" : "it is missing"
            let found = value.map { "got '\(TypeName.visible($0))'" } ?? absent
            // A query item's name and a literal the pattern requires are decoded text, shown as
            // the value is: a zero-width space in either would otherwise hide what is wrong.
            let detail = "'\(TypeName.visible(name))'\(route) must be \(TypeName.visible(expected)), but \(found)."
                + Self.optionalHint(missingPart, name)
            if fallbackNotConsulted, let url {
                return "No route matches '\(url)': parameter " + detail + " " + Self.fallbackNotConsultedNote
            }
            return url.map { "Cannot open '\($0)': parameter " + detail } ?? "Parameter " + detail
        case .missingParameter(let name, let pattern) where pattern == Self.fallbackPattern:
            return "No parameter '\(TypeName.visible(name))' for \(subject): a fallback opened it, and a fallback's "
                + "request has no parameters. Read the URL in a fallback (request.url, request.query(_:))."
        case .missingParameter(let name, let pattern):
            let route = pattern.map { "route '\($0)'" } ?? "the route"
            // A segment's or the fragment's parameter is named with letters, digits and '_'; only
            // a query item captures under any other name (`?from-page`), spelled as a pattern
            // writes one (a leading ':' and what would end or split it escaped).
            // No pattern declares a parameter without a name ('?=' is refused): none is suggested.
            // `*` is the unnamed wildcard's name; '?*=' would declare it too, but no one asking
            // for `*` means a query item.
            let declare: String? =
                name.isEmpty ? nil
                : name == "*" ? "'*' in the pattern as an unnamed wildcard, its last segment."
                : name.utf8.allSatisfy(isNameByte)
                    ? "'\(name)' in the pattern (':\(name)', '?\(name)=' or '#:\(name)')."
                    : "'\(name)' in the pattern as a query item ('?\(Self.querySpelling(name))=')."
            let noEmptyName = "no parameter's name is empty."
            let missing = "No parameter '\(TypeName.visible(name))' in \(route)\(url.map { " for '\($0)'" } ?? "")"
            switch declaredNames {
            case nil:
                return missing + ". Use a name declared in the pattern" + (declare.map { ", or declare " + $0 } ?? ": " + noEmptyName)
            case let names? where names.isEmpty:
                return missing + "; the route has no parameters" + (declare.map { ". Declare " + $0 } ?? ", and " + noEmptyName)
            case let names?:
                // The names are listed so that a typo ('bookID' for 'bookId') shows.
                return missing + "; the route has: \(names.map(TypeName.visible).joined(separator: ", ")). Use one of those"
                    + (declare.map { ", or declare " + $0 } ?? ": " + noEmptyName)
            }
        case .serviceUnavailable(let resolution, let pattern):
            let hint = Self.argumentHint(resolution, pattern: pattern).map { "\n  " + $0 } ?? ""
            if pattern == Self.fallbackPattern {
                return "The fallback that took \(subject) could not resolve its service: \(resolution)\(hint)"
            }
            return "Route '\(pattern)' matched \(subject) but its service could not be resolved: \(resolution)\(hint)"
        case .handlerFailed(let underlying, let pattern):
            let thrown = TypeName.describeError(underlying)
            if pattern == Self.fallbackPattern {
                return "The fallback failed for \(subject): \(thrown)"
            }
            return "The handler of route '\(pattern)' failed for \(subject): \(thrown)"
        case .declined(let patterns):
            if patterns.isEmpty {
                return "No route matches \(subject), and every fallback for it declined it."
            }
            return "Every route matching \(subject) declined it (\(patterns.joined(separator: ", "))), "
                + "and no fallback took it."
        case .resultTypeMismatch(let expected, let actual, let pattern):
            let route = pattern.map { "route '\($0)'" } ?? "the fallback"
            // No article before a type: "a" reads wrongly before a module starting with a
            // vowel (`AppFeature.BookPage`) or a tuple.
            return "Opened \(subject) asking for a result of type \(expected), but \(route) returned one of type "
                + "\(actual). Ask open(_:as:) for the type the handler returns."
        case .invalidPattern(let pattern, let problem):
            return "Invalid route pattern '\(TypeName.visible(pattern))': \(TypeName.visible(problem))."
        case .invalidParameterType(let name, let problem):
            return "Cannot read patterns with the custom parameter type '\(TypeName.visible(name))': "
                + "\(TypeName.visible(problem)). "
                + "Until it is fixed in Configuration.parameterTypes (or the parameterTypes given to RoutePattern), "
                + "every pattern read with these types is refused."
        case .conflictingQueryItem(let name, let value, let pattern):
            let item = TypeName.visible(QueryItem(name: name, value: value).description)
            let start = "Cannot build a URL for route '\(pattern)': the extra query item '\(item)' is named like "
            let lost = ", and a URL opened reads only the first item of a name, so the extra one would be lost. "
            switch patternConstraint {
            case .literal(let text)?:
                return start + "the item the pattern requires to be '\(TypeName.visible(text))'" + lost
                    + "Leave it out of query: (the pattern writes that item itself), or give it another name."
            case .capture(let parameter, _)?:
                return start + "the item the pattern captures as '\(parameter)'" + lost
                    + "Pass its value as parameters[\"\(parameter)\"] and leave it out of query:, or give it another name."
            case nil:
                return start + "an item the pattern fixes or captures" + lost
                    + "Leave it out of query:, or give it another name."
            }
        case .emptyQueryItem(let pattern):
            return "Cannot build a URL for route '\(pattern)': an extra query item has neither a name nor a value, "
                + "and a URL cannot hold one (it would read back as no item), so it would be lost. "
                + "Leave it out of query:, or give it a name."
        case .conflictingFragment(let value, let pattern):
            let start = "Cannot build a URL for route '\(pattern)': "
            let lost = ", so the fragment '\(TypeName.visible(value))' given would be lost (a URL has one). "
            switch patternConstraint {
            case .literal(let text)?:
                return start + "the pattern requires the fragment '\(TypeName.visible(text))'" + lost
                    + "Leave out fragment:, or pass that one."
            case .capture(let parameter, _)?:
                return start + "the pattern captures the fragment as '\(parameter)', whose value comes from "
                    + "parameters[\"\(parameter)\"]" + lost + "Pass it as parameters[\"\(parameter)\"] and leave out fragment:."
            case nil:
                return start + "the pattern fixes or captures the fragment" + lost + "Leave out fragment:."
            }
        }
    }

    /// A ``Reason/noRoute`` description: `problem`, then, unless a fallback would take the
    /// URL, what to do (`fix`).
    private func noRoute(_ problem: String, fix: String) -> String {
        if fallbackNotConsulted { return problem + ". " + Self.fallbackNotConsultedNote }
        return problem + ". " + fix + " (or set a fallback with setFallback(forScheme:))."
    }

    /// The scheme of the URL the error is about, lowercased, as a description quotes it.
    /// Split at the first ':' byte, as the URL parser does: the first ':' character would
    /// not be it when a combining mark follows the ':' (`weread:\u{301}x`), which makes the
    /// two one character.
    private var schemeOfURL: String {
        url.map { String(decoding: $0.utf8.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self).lowercased() }
            ?? "its scheme"
    }

    /// How to make optional the query item `name` or the fragment that a URL lacked: a
    /// newcomer puts in the pattern what the handler reads, and the route then refuses every
    /// URL without it.
    private static func optionalHint(_ part: MissingPart?, _ name: String) -> String {
        switch part {
        case .queryItem?:
            return " A pattern's query items are required: if '\(TypeName.visible(name))' may be left out, remove it "
                + "from the pattern and read it in the handler with request.query(\(TypeName.literal(name)))."
        case .fragment?:
            return " A pattern's fragment is required: if it may be left out, remove it from the pattern and read it "
                + "in the handler as request.url.fragment."
        case nil:
            return ""
        }
    }

    /// `name` as a pattern writes a query item's name: escaped where it would end or split
    /// the item, and a leading ':' escaped, which would read as a capture's.
    private static func querySpelling(_ name: String) -> String {
        guard name.utf8.first == UInt8(ascii: ":") else {
            return PercentEncoding.encode(name, allowing: PercentEncoding.isAllowedInQuery)
        }
        return "%3A" + PercentEncoding.encode(String(droppingFirstByte(name[...])), allowing: PercentEncoding.isAllowedInQuery)
    }

    /// `1 query item`, `2 query items`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// The part of `url` a description quotes: all of it, except for a URL refused for its
    /// length, which may be megabytes of someone else's text; its start says which it was.
    /// Cut by scalars, not characters: one character may hold any number of combining marks.
    private static func shown(_ url: String, _ reason: Reason) -> String {
        guard case .urlTooLong = reason, url.utf8.count > 100 else { return url }
        return String(String.UnicodeScalarView(url.unicodeScalars.prefix(64))) + "…"
    }

    /// For an argument mismatch of the service the router resolved itself (not one deeper
    /// down): the registry's fix says to resolve with another argument, but the app never
    /// writes that resolve; the route's `argument:` closure (or its lack) is what to change.
    private static func argumentHint(_ resolution: ResolutionError, pattern: String) -> String? {
        guard resolution.reason == .argumentMismatch, let service = resolution.path.first, resolution.path.count == 1
        else { return nil }
        let wanted = resolution.registeredArgumentTypes.first.flatMap { $0 }
        if pattern == fallbackPattern {
            return "The router resolved `\(service)` for the fallback, which resolves its service without an argument: "
                + "give the fallback a service whose factory takes none."
        }
        switch (resolution.givenArgumentType, wanted) {
        case (nil, let wanted?):
            return "The router resolved `\(service)` for route '\(pattern)', which has no `argument:` closure: "
                + "register the route with one that returns a value of type `\(wanted)`."
        case (_?, let wanted?):
            return "The router resolved `\(service)` for route '\(pattern)' with what its `argument:` closure "
                + "returns: make the closure return a value of type `\(wanted)`."
        case (_?, nil):
            return "The router resolved `\(service)` for route '\(pattern)' with what its `argument:` closure "
                + "returns: register the route without `argument:`, since the factory takes no argument."
        case (nil, nil):
            return nil
        }
    }
}

extension RouteError: CustomReflectable {
    /// The public properties, as `dump(_:)` and debuggers show them: the error keeps them
    /// behind one reference, which a mirror of its stored properties would show instead.
    public var customMirror: Mirror {
        Mirror(self, children: ["reason": reason, "url": url as Any], displayStyle: .struct)
    }
}
