/// What a registration is found by: the service type, its optional name, and the type of
/// the runtime argument its factory takes.
///
/// Types are compared by `ObjectIdentifier`; their names are formatted only when an error
/// or a listing is built, never on the resolve path.
struct ServiceKey: Hashable, Sendable {
    let service: ObjectIdentifier
    let argument: ObjectIdentifier
    let name: String?

    init<Service>(_ service: Service.Type, name: String?) {
        self.service = ObjectIdentifier(service)
        self.argument = ObjectIdentifier(NoArgument.self)
        self.name = name
    }

    init<Service, Argument>(_ service: Service.Type, name: String?, argument: Argument.Type) {
        self.service = ObjectIdentifier(service)
        self.argument = ObjectIdentifier(argument)
        self.name = name
    }

    /// Whether a factory registered under this key takes no argument.
    var takesNoArgument: Bool { argument == ObjectIdentifier(NoArgument.self) }

    /// A cheap hash for the registration table: two multiplies for the types, and the
    /// string's hash only when there is a name (most resolves have none).
    @inline(__always)
    var tableHash: UInt {
        var hash = UInt(bitPattern: service) &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt(bitPattern: argument) &* 0xC2B2_AE3D_27D4_EB4F
        if let name {
            hash ^= UInt(bitPattern: name.hashValue)
        }
        return hash ^ (hash >> 29)
    }
}

/// The argument type of a factory that takes no argument.
///
/// A private type rather than `Void`, so a factory registered with an explicit `Void`
/// argument never shares a key with one that takes none.
enum NoArgument {}
