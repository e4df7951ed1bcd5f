// A stand-in for the Dispatch API this package uses, for Scripts/check-apple-availability.sh
// only (see Foundation.swift here).
public struct DispatchTime: Comparable, Sendable {
    public static func now() -> DispatchTime { fatalError() }
    public static func < (lhs: DispatchTime, rhs: DispatchTime) -> Bool { fatalError() }
    public static func + (time: DispatchTime, seconds: Double) -> DispatchTime { fatalError() }
}

public enum DispatchTimeoutResult: Sendable {
    case success, timedOut
}

public final class DispatchSemaphore: @unchecked Sendable {
    public init(value: Int) { fatalError() }
    @discardableResult public func signal() -> Int { fatalError() }
    public func wait() { fatalError() }
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult { fatalError() }
}

public final class DispatchQueue: @unchecked Sendable {
    public init(label: String) { fatalError() }
    public class func global() -> DispatchQueue { fatalError() }
    public class var main: DispatchQueue { fatalError() }
    public func async(execute work: @escaping @Sendable () -> Void) { fatalError() }
    public func asyncAfter(deadline: DispatchTime, execute work: @escaping @Sendable () -> Void) { fatalError() }
    public func sync<T>(execute work: () throws -> T) rethrows -> T { fatalError() }
}
