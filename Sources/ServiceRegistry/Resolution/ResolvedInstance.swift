/// Reserves stack space for one `Service`, lets `resolve` initialize it, and returns it.
///
/// The typed front of every `resolve` overload: it is specialized in the caller, so the
/// non-generic engine behind `resolve` never needs the caller's types.
@inlinable
func resolvedInstance<Service>(
    of type: Service.Type, _ resolve: (UnsafeMutableRawPointer) throws(ResolutionError) -> Void
) throws(ResolutionError) -> Service {
    try withUnsafeTemporaryAllocation(of: Service.self, capacity: 1) { result throws(ResolutionError) in
        try resolve(UnsafeMutableRawPointer(result.baseAddress!))
        return result.baseAddress!.move()
    }
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
            try resolve(UnsafeRawPointer(argument), result)
        }
    }
}
