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

    /// The key for `service` under `name`, for a factory taking an `argument` (or none).
    init(_ service: Any.Type, name: String?, argument: Any.Type? = nil) {
        self.init(service: ObjectIdentifier(service), argument: argument.map(ObjectIdentifier.init), name: name)
    }

    /// Whether a factory registered under this key takes no argument.
    var takesNoArgument: Bool { argument == ObjectIdentifier(NoArgument.self) }

    /// A cheap hash for the registration table: the service type's identity and (only when
    /// there is one — most resolves have none) the name, multiplied by a 64-bit odd
    /// constant, keeping the product's high half, which every input bit reaches. The table
    /// takes an index from this hash's top bits (Fibonacci hashing), so keys that differ in
    /// a few bits never cluster.
    ///
    /// The argument type is left out: a service type and name rarely have more than one
    /// registration, and with it out, the table finds whether one with any argument exists
    /// in one probe (``RegistrationTable/hasRegistration(of:name:otherThan:)``), which a
    /// resolve of an optional type asks every time, instead of scanning every slot.
    @inline(__always)
    var tableHash: UInt32 {
        var hash = UInt64(UInt(bitPattern: service))
        if let name {
            hash ^= Self.nameHash(name)
        }
        return UInt32(truncatingIfNeeded: ((hash ^ (hash >> 29)) &* 0xFF51_AFD7_ED55_8CCD) >> 32)
    }

    /// A hash of `name` that equal names share.
    ///
    /// Names are short and come from the program, not from outside, so the table needs no
    /// protection against crafted collisions and can hash much more cheaply than `Hasher`
    /// (which took 26 ns more per named resolve). Swift calls two strings equal when they
    /// spell the same text, even in different bytes (`"é"` as one scalar, or as `"e"` and a
    /// combining accent), so bytes can be hashed only where each text has one spelling:
    /// ASCII. A name that is not ASCII goes to `Hasher`, which hashes the canonical form
    /// (and allocates for a name with a combining accent, such as `"cafe\u{301}"`, or
    /// `"x\u{301}"`, which is already in NFC),
    /// unless it is one of the few spellings of an ASCII name (see
    /// ``asciiForms``), which hashes as that name.
    private static func nameHash(_ name: String) -> UInt64 {
        if let hash = asciiHash(name) { return hash }
        if let hash = respelledASCIIHash(name) { return hash }
        var hasher = Hasher()
        hasher.combine(name)
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    /// ``asciiHash(_:)`` of `name` with each character of ``asciiForms`` respelled as its
    /// ASCII form, or `nil` if some other character is not ASCII. Computed from the
    /// scalars one by one, without building the respelled string, which allocated for a
    /// name over 15 bytes on every resolve of a cached singleton.
    private static func respelledASCIIHash(_ name: String) -> UInt64? {
        var count: UInt64 = 0
        for scalar in name.unicodeScalars {
            guard scalar.isASCII || asciiForms[scalar] != nil else { return nil }
            count += 1
        }
        var hash = 0xCBF2_9CE4_8422_2325 ^ count
        var word: UInt64 = 0
        var shift: UInt64 = 0
        for scalar in name.unicodeScalars {
            word |= UInt64((asciiForms[scalar] ?? scalar).value) << shift
            shift += 8
            if shift == 64 {
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                (word, shift) = (0, 0)
            }
        }
        return (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The characters whose canonical form is ASCII (KELVIN SIGN, GREEK QUESTION MARK and
    /// GREEK VARIA), with that form: the only way a string that is not ASCII can equal
    /// one that is. Every other character's canonical form keeps a character that is not
    /// ASCII.
    private static let asciiForms: [Unicode.Scalar: Unicode.Scalar] = ["\u{212A}": "K", "\u{037E}": ";", "\u{1FEF}": "`"]

    /// The name's UTF-8 bytes eight at a time, each word mixed in with one multiply, or
    /// `nil` if the name is not ASCII. A byte at a time (FNV-1a) took about 10 ns for an
    /// eight-byte name, each multiply waiting for the one before.
    @inline(__always)
    private static func asciiHash(_ name: String) -> UInt64? {
        var name = name
        return name.withUTF8 { bytes -> UInt64? in
            let bytes = UnsafeRawBufferPointer(bytes)
            var hash = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
            var highBits: UInt64 = 0
            var offset = 0
            while offset + 8 <= bytes.count {
                // Little-endian, as respelledASCIIHash(_:) packs its words, so that a respelled
                // name hashes as its ASCII twin on a big-endian machine too (free on others).
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                highBits |= word
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                offset += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count {
                tail |= UInt64(bytes[offset]) << shift
                shift += 8
                offset += 1
            }
            guard (highBits | tail) & 0x8080_8080_8080_8080 == 0 else { return nil }
            return (hash ^ tail) &* 0x9E37_79B9_7F4A_7C15
        }
    }
}

/// The argument type of a factory that takes no argument.
///
/// A private type rather than `Void`, so a factory registered with an explicit `Void`
/// argument never shares a key with one that takes none.
enum NoArgument {}
