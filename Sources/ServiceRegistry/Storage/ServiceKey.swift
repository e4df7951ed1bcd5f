/// What a registration is found by: the service type, its optional name, and the type of
/// the runtime argument its factory takes.
///
/// Types are compared by `ObjectIdentifier`; their names are formatted only when an error
/// or a listing is built, never on the resolve path.
struct ServiceKey: Hashable, Sendable {
    let service: ObjectIdentifier
    /// The argument type's identity; ``NoArgument`` for a factory that takes none.
    let argument: ObjectIdentifier
    let name: String?

    init(service: ObjectIdentifier, argument: ObjectIdentifier?, name: String?) {
        self.service = service
        self.argument = argument ?? ObjectIdentifier(NoArgument.self)
        self.name = name
    }

    init<Service>(_ service: Service.Type, name: String?) {
        self.init(service: ObjectIdentifier(service), argument: nil, name: name)
    }

    init<Service, Argument>(_ service: Service.Type, name: String?, argument: Argument.Type) {
        self.init(service: ObjectIdentifier(service), argument: ObjectIdentifier(argument), name: name)
    }

    /// Whether a factory registered under this key takes no argument.
    var takesNoArgument: Bool { argument == ObjectIdentifier(NoArgument.self) }

    /// A cheap hash for the registration table: the type identities and (only when there
    /// is one — most resolves have none) the name, multiplied by a 64-bit odd constant,
    /// keeping the product's high half, which every input bit reaches. The table takes an
    /// index from this hash's top bits (Fibonacci hashing), so keys that differ in a few
    /// bits never cluster.
    @inline(__always)
    var tableHash: UInt32 {
        var hash = UInt64(UInt(bitPattern: service)) ^ (UInt64(UInt(bitPattern: argument)) &* 0x9E37_79B9_7F4A_7C15)
        if let name {
            hash ^= Self.nameHash(name)
        }
        return UInt32(truncatingIfNeeded: ((hash ^ (hash >> 29)) &* 0xFF51_AFD7_ED55_8CCD) >> 32)
    }

    /// FNV-1a over the name's UTF-8 bytes: names are short, and this is several times
    /// cheaper than `Hasher` (the table needs no protection against crafted collisions:
    /// names come from the program, not from outside).
    @inline(__always)
    private static func nameHash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// The argument type of a factory that takes no argument.
///
/// A private type rather than `Void`, so a factory registered with an explicit `Void`
/// argument never shares a key with one that takes none.
enum NoArgument {}
