// A second module for ServiceRegistryTests. Types that share a short name (each
// component's `Config`) are the ones whose listings and graph nodes must show their full
// names; only two modules can each have a `Config`.

/// This component's configuration; ServiceRegistryTests has a `Config` of its own.
public struct Config: Sendable {
    public init() {}
}

/// Named like a private namespace of ServiceRegistryTests, whose full name the runtime
/// writes with an address.
public enum PrivateCatalog {
    /// That namespace's configuration.
    public struct Config: Sendable {
        public init() {}
    }
}
