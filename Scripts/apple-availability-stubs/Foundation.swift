// A stand-in for the Foundation API this package uses, for Scripts/check-apple-availability.sh
// only: declarations with the signatures Apple's Foundation has, bodies that never run, and
// no availability (the toolchain has no textual interface of Foundation to take it from).
// It lets the script type-check, for macOS, every target that imports Foundation, so the
// standard library, Concurrency and Synchronization calls in them are checked. A target
// that starts using more of Foundation fails the script with "cannot find ... in scope":
// add the declaration here, as Apple declares it.
@_exported import Darwin
@_exported import Dispatch

public struct Data: RandomAccessCollection, Sendable {
    public init<S: Sequence>(_ elements: S) where S.Element == UInt8 { fatalError() }
    public var startIndex: Int { fatalError() }
    public var endIndex: Int { fatalError() }
    public subscript(position: Int) -> UInt8 { fatalError() }
}

public struct URL: Hashable, Sendable {
    public init(fileURLWithPath path: String) { fatalError() }
    public var path: String { fatalError() }
    public var pathExtension: String { fatalError() }
    public var lastPathComponent: String { fatalError() }
    public func appendingPathComponent(_ pathComponent: String) -> URL { fatalError() }
    public func deletingLastPathComponent() -> URL { fatalError() }
    public func resolvingSymlinksInPath() -> URL { fatalError() }
}

// A `SetAlgebra` of `Unicode.Scalar` in Foundation, so an array literal makes one.
public struct CharacterSet: Sendable, ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Unicode.Scalar...) { fatalError() }
    public static var whitespaces: CharacterSet { fatalError() }
    public static var whitespacesAndNewlines: CharacterSet { fatalError() }
}

public struct Locale: Sendable {}

extension String {
    public struct CompareOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let caseInsensitive = CompareOptions(rawValue: 1)
        public static let diacriticInsensitive = CompareOptions(rawValue: 128)
    }

    public struct Encoding: Sendable {
        public static let utf8 = Encoding()
    }

    public init(contentsOfFile path: String, encoding enc: Encoding) throws { fatalError() }
    public init(contentsOf url: URL, encoding enc: Encoding) throws { fatalError() }
    public init(format: String, _ arguments: any CVarArg...) { fatalError() }
}

extension StringProtocol {
    public func trimmingCharacters(in set: CharacterSet) -> String { fatalError() }
    public func folding(options: String.CompareOptions = [], locale: Locale?) -> String { fatalError() }
}

public final class FileHandle: @unchecked Sendable {
    public class var standardError: FileHandle { fatalError() }
    public func write(_ data: Data) { fatalError() }
}

open class FileManager: @unchecked Sendable {
    open class var `default`: FileManager { fatalError() }
    open func enumerator(atPath path: String) -> DirectoryEnumerator? { fatalError() }
    open func enumerator(at url: URL, includingPropertiesForKeys keys: [String]?) -> DirectoryEnumerator? {
        fatalError()
    }
    open func contentsOfDirectory(atPath path: String) throws -> [String] { fatalError() }
    open func subpathsOfDirectory(atPath path: String) throws -> [String] { fatalError() }
}

open class DirectoryEnumerator: Sequence, IteratorProtocol {
    open func next() -> Any? { fatalError() }
}

open class ProcessInfo: @unchecked Sendable {
    open class var processInfo: ProcessInfo { fatalError() }
    open var activeProcessorCount: Int { fatalError() }
    open var operatingSystemVersionString: String { fatalError() }
}

open class Thread: @unchecked Sendable {
    public convenience init(block: @escaping @Sendable () -> Void) { fatalError() }
    open var stackSize: Int {
        get { fatalError() }
        set { fatalError() }
    }
    open func start() { fatalError() }
    open class func sleep(forTimeInterval interval: Double) { fatalError() }
}

open class NSLock: @unchecked Sendable {
    public init() { fatalError() }
    open func lock() { fatalError() }
    open func unlock() { fatalError() }
    public func withLock<R>(_ body: () throws -> R) rethrows -> R { fatalError() }
}

open class JSONEncoder {
    public struct OutputFormatting: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let sortedKeys = OutputFormatting(rawValue: 2)
    }

    open var outputFormatting: OutputFormatting {
        get { fatalError() }
        set { fatalError() }
    }
    public init() { fatalError() }
    open func encode<T: Encodable>(_ value: T) throws -> Data { fatalError() }
}

open class JSONDecoder {
    public init() { fatalError() }
    open func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T { fatalError() }
}

open class JSONSerialization {
    public struct ReadingOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
    }

    open class func jsonObject(with data: Data, options opt: ReadingOptions = []) throws -> Any { fatalError() }
}
