// A stand-in for the C library calls this package makes on Apple platforms, for
// Scripts/check-apple-availability.sh only (see Foundation.swift here).
public func write(_ fd: Int32, _ buf: UnsafeRawPointer!, _ nbyte: Int) -> Int { fatalError() }
public func exit(_ status: Int32) -> Never { fatalError() }
public func pow(_ x: Double, _ y: Double) -> Double { fatalError() }
public func free(_ ptr: UnsafeMutableRawPointer?) { fatalError() }
// Discardable, as the C function imported from a header is.
@discardableResult public func sched_yield() -> Int32 { fatalError() }
// A thread's identity; a pointer on Apple platforms (an integer on Linux).
public struct _opaque_pthread_t {}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>
public func pthread_self() -> pthread_t { fatalError() }
