/// Reserves stack space for one `Service`, lets `resolve` initialize it, and returns it.
///
/// The typed front of every `resolve` overload: it is specialized in the caller, so the
/// non-generic engine behind `resolve` never needs the caller's types.
///
/// The closure given to `withUnsafeTemporaryAllocation` does not throw: with a throwing
/// one, the standard library carries the outcome in a `Result<Service, ResolutionError>`
/// that the caller destroys through the runtime's generic value witnesses, about 3 ns of
/// every resolve.
@inlinable
func resolvedInstance<Service>(
    of type: Service.Type, _ resolve: (UnsafeMutableRawPointer) throws(ResolutionError) -> Void
) throws(ResolutionError) -> Service {
    var failure: ResolutionError?
    let instance = withUnsafeTemporaryAllocation(of: Service.self, capacity: 1) { result -> Service? in
        do throws(ResolutionError) {
            try resolve(UnsafeMutableRawPointer(result.baseAddress!))
        } catch {
            failure = error
            return nil
        }
        return result.baseAddress!.move()
    }
    guard let instance else { throw failure! }
    return instance
}

/// `resolvedInstance(of:_:)` for a resolve with an argument, which the engine reads
/// through a pointer.
@inlinable
func resolvedInstance<Service, Argument>(
    of type: Service.Type, argument: Argument,
    _ resolve: (UnsafeRawPointer, UnsafeMutableRawPointer) throws(ResolutionError) -> Void
) throws(ResolutionError) -> Service {
    try withUnsafePointer(to: argument) { argument throws(ResolutionError) in
        try resolvedInstance(of: Service.self) { result throws(ResolutionError) in
            try resolve(argumentAddress(argument), result)
        }
    }
}

/// The address the engine reads an argument at, which it takes as "no argument" when `nil`.
///
/// A value of a zero-sized type (`()`, an empty struct) may have no address: in an
/// AddressSanitizer debug build `withUnsafePointer` gave a null one, which read as `nil`, and
/// the factory's unwrap of it stopped the program. Nothing is read from a zero-sized value,
/// so any aligned address serves. Decided when `Argument` is known, so it costs nothing.
@inlinable
func argumentAddress<Argument>(_ pointer: UnsafePointer<Argument>) -> UnsafeRawPointer {
    MemoryLayout<Argument>.size == 0
        ? UnsafeRawPointer(bitPattern: MemoryLayout<Argument>.alignment)!
        : UnsafeRawPointer(pointer)
}

/// Initializes the memory at its second argument with a copy of the instance at its first.
@usableFromInline
typealias InstanceCopy = (UnsafeRawPointer, UnsafeMutableRawPointer) -> Void

/// Initializes `destination` with a copy of the `Service` at `source`: how a cached
/// singleton leaves the table.
///
/// Every `resolve` passes this, wrapped in a closure literal, down to the table, so the
/// copy is code specialized where `resolve` is called. The registration's own copy is
/// generic code in this library, which goes through the runtime's value witnesses and
/// took about a fifth of a cached-singleton resolve. A closure literal rather than a
/// returned closure, because a non-escaping literal's context lives on the stack even in
/// unspecialized generic code, where a returned one would be allocated on every call.
@inlinable
func copyService<Service>(_ type: Service.Type, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
    destination.assumingMemoryBound(to: Service.self).initialize(to: source.assumingMemoryBound(to: Service.self).pointee)
}
