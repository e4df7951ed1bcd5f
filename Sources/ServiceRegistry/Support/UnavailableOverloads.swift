// Overloads that no code can call. Swift 6.3.1 answers a `resolve()` whose service type it
// cannot infer, and a `withOverrides` without its `operation:`, with "failed to produce
// diagnostic for expression; please submit a bug report", because every real overload fails
// there. Swift prefers any available overload that fits, so these are chosen only where
// nothing else compiles, and their messages then say what is missing.

extension ServiceRegistry {
    /// Stands in for ``resolve(_:name:)`` where Swift cannot infer the service type, so that
    /// the compiler says so.
    ///
    /// - Parameter name: The registration name.
    /// - Returns: Nothing: it cannot be called.
    /// - Throws: Nothing: it cannot be called.
    @available(*, unavailable, message: "Swift cannot infer the service type here: name it, as in resolve(ReviewService.self), or give the result a type, as in 'let reviews: any ReviewService = ...'")
    public func resolve(name: String? = nil) throws(ResolutionError) -> Never {
        fatalError("unavailable")
    }

    /// Stands in for ``resolve(_:name:argument:)`` where Swift cannot infer the service
    /// type, so that the compiler says so.
    ///
    /// - Parameters:
    ///   - name: The registration name.
    ///   - argument: The value for the factory.
    /// - Returns: Nothing: it cannot be called.
    /// - Throws: Nothing: it cannot be called.
    @available(*, unavailable, message: "Swift cannot infer the service type here: name it, as in resolve(BookScreen.self, argument: id), or give the result a type, as in 'let screen: any BookScreen = ...'")
    public func resolve<Argument>(name: String? = nil, argument: Argument) throws(ResolutionError) -> Never {
        fatalError("unavailable")
    }

    /// Stands in for ``withOverrides(_:operation:)`` called without its operation, so
    /// that the compiler says so.
    ///
    /// - Parameter configure: Registers the overrides.
    /// - Returns: Nothing: it cannot be called.
    /// - Throws: Nothing: it cannot be called.
    @available(*, unavailable, message: "withOverrides needs the code that sees the overrides: 'withOverrides { $0.register(...) } operation: { ... }'")
    public func withOverrides(_ configure: (OverrideRegistrar) throws -> Void) throws -> Never {
        fatalError("unavailable")
    }
}

extension Resolver {
    /// Stands in for ``resolve(_:name:)`` where Swift cannot infer the service type, so that
    /// the compiler says so.
    ///
    /// - Parameter name: The registration name.
    /// - Returns: Nothing: it cannot be called.
    /// - Throws: Nothing: it cannot be called.
    @available(*, unavailable, message: "Swift cannot infer the service type here: name it, as in r.resolve(ReviewService.self), or give the result a type, as in 'let reviews: any ReviewService = ...'")
    public func resolve(name: String? = nil) throws(ResolutionError) -> Never {
        fatalError("unavailable")
    }

    /// Stands in for ``resolve(_:name:argument:)`` where Swift cannot infer the service
    /// type, so that the compiler says so.
    ///
    /// - Parameters:
    ///   - name: The registration name.
    ///   - argument: The value for the factory.
    /// - Returns: Nothing: it cannot be called.
    /// - Throws: Nothing: it cannot be called.
    @available(*, unavailable, message: "Swift cannot infer the service type here: name it, as in r.resolve(BookScreen.self, argument: id), or give the result a type, as in 'let screen: any BookScreen = ...'")
    public func resolve<Argument>(name: String? = nil, argument: Argument) throws(ResolutionError) -> Never {
        fatalError("unavailable")
    }
}
