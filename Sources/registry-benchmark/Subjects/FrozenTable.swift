/// The least a container that finds services at run time can do: a table of typed
/// factories, filled once and never changed, read with no lock.
///
/// What it leaves out is what makes it cheap, and what the registry's contract asks for:
/// registering while others resolve (the table is made whole, then only read), a cached
/// instance that re-registering can free (a shared instance is made with the table and
/// lives as long as it), cycle detection (a factory resolving itself recurses until the
/// stack runs out), scopes, and errors that explain anything (a miss names the type).
/// A lookup hashes the type's metadata address with one multiply, probes a power-of-two
/// table, and calls the factory it finds without retaining it; generic and small, it is
/// specialized and inlined where it is called, as the registry's typed front is.
///
/// The `frozen-table` subject measures it so that each run shows, next to the registry,
/// what looking a service up and calling its factory costs without that contract.
final class FrozenTable: @unchecked Sendable {
    // Unchecked, though no lock guards it: the slots are written only by `init` and only
    // read after it, which the compiler cannot see through an unsafe buffer, and every
    // factory box is immutable and holds a `@Sendable` closure.

    /// A resolve that found nothing registered for what it asked.
    struct Failure: Error, CustomStringConvertible {
        /// The requested type, formatted only now that the error is being built.
        let requested: String

        var description: String { "frozen-table: nothing registered for \(requested)" }
    }

    /// One factory to put in the table, and the key it answers to.
    struct Registration: Sendable {
        fileprivate let type: ObjectIdentifier
        fileprivate let name: String?
        fileprivate let argument: ObjectIdentifier?
        fileprivate let box: AnyObject & Sendable

        /// A factory resolved without an argument.
        ///
        /// - Parameters:
        ///   - type: The type callers resolve.
        ///   - name: An optional name telling several registrations of one type apart.
        ///   - make: Builds an instance; it gets the table to resolve its dependencies from.
        static func factory<Service>(
            _ type: Service.Type, name: String? = nil, _ make: @escaping @Sendable (FrozenTable) throws -> Service
        ) -> Registration {
            // Keyed by the static type, the one the box is made for: a metatype passed as a
            // value may be a subclass's.
            Registration(type: ObjectIdentifier(Service.self), name: name, argument: nil, box: Factory(make))
        }

        /// A factory resolved with an argument of type `Argument`.
        ///
        /// - Parameters:
        ///   - type: The type callers resolve.
        ///   - make: Builds an instance from the table and the argument.
        static func factory<Service, Argument>(
            _ type: Service.Type, _ make: @escaping @Sendable (FrozenTable, Argument) throws -> Service
        ) -> Registration {
            Registration(
                type: ObjectIdentifier(Service.self), name: nil, argument: ObjectIdentifier(Argument.self),
                box: ArgumentFactory(make))
        }
    }

    private struct Slot {
        /// The key's type as a number; 0 marks an empty slot.
        let type: Int
        let name: String?
        let argument: ObjectIdentifier?
        /// Kept by the table (released in `deinit`), so a lookup borrows it; `nil` in an
        /// empty slot.
        let box: Unmanaged<AnyObject>?
    }

    private let slots: UnsafeMutableBufferPointer<Slot>
    /// Shifts a 64-bit product down to a slot index.
    private let shift: Int

    /// Builds the table, at most half full.
    ///
    /// - Parameter registrations: Every factory, each under a key of its own.
    init(_ registrations: [Registration]) {
        var capacity = 8
        while capacity < 2 * registrations.count { capacity *= 2 }
        shift = Int.bitWidth - capacity.trailingZeroBitCount
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(type: 0, name: nil, argument: nil, box: nil))
        for registration in registrations {
            let type = Int(bitPattern: registration.type)
            var index = slotIndex(type)
            while slots[index].type != 0 { index = (index + 1) & (capacity - 1) }
            slots[index] = Slot(
                type: type, name: registration.name, argument: registration.argument,
                box: Unmanaged.passRetained(registration.box))
        }
    }

    deinit {
        for slot in slots { slot.box?.release() }
        slots.deinitialize()
        slots.deallocate()
    }

    /// Builds a `Service` with the factory registered without an argument.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - name: The name it was registered under, if any.
    /// - Returns: The instance.
    /// - Throws: ``Failure`` when nothing is registered, or what the factory throws.
    func resolve<Service>(_ type: Service.Type, name: String? = nil) throws -> Service {
        guard let box = box(for: Service.self, name: name, argument: nil) else {
            throw Failure(requested: "\(Service.self)")
        }
        // The key matched `Service` with no argument, which only `Factory<Service>` has.
        return try box._withUnsafeGuaranteedRef { try unsafeDowncast($0, to: Factory<Service>.self).make(self) }
    }

    /// Builds a `Service` from `argument` with the factory registered for that argument type.
    ///
    /// - Parameters:
    ///   - type: The type to resolve.
    ///   - argument: Passed to the factory.
    /// - Returns: The instance.
    /// - Throws: ``Failure`` when nothing is registered for this argument type, or what the
    ///   factory throws.
    func resolve<Service, Argument>(_ type: Service.Type, argument: Argument) throws -> Service {
        guard let box = box(for: Service.self, name: nil, argument: ObjectIdentifier(Argument.self)) else {
            throw Failure(requested: "\(Service.self) with a \(Argument.self) argument")
        }
        return try box._withUnsafeGuaranteedRef {
            try unsafeDowncast($0, to: ArgumentFactory<Service, Argument>.self).make(self, argument)
        }
    }

    private func box(for type: Any.Type, name: String?, argument: ObjectIdentifier?) -> Unmanaged<AnyObject>? {
        let type = Int(bitPattern: ObjectIdentifier(type))
        var index = slotIndex(type)
        while slots[index].type != 0 {
            let slot = slots[index]
            if slot.type == type, slot.name == name, slot.argument == argument { return slot.box }
            index = (index + 1) & (slots.count - 1)
        }
        return nil
    }

    private func slotIndex(_ type: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: type) &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
    }
}

private final class Factory<Service>: Sendable {
    let make: @Sendable (FrozenTable) throws -> Service

    init(_ make: @escaping @Sendable (FrozenTable) throws -> Service) {
        self.make = make
    }
}

private final class ArgumentFactory<Service, Argument>: Sendable {
    let make: @Sendable (FrozenTable, Argument) throws -> Service

    init(_ make: @escaping @Sendable (FrozenTable, Argument) throws -> Service) {
        self.make = make
    }
}
