// A stand-in for the XCTest API this package's documentation examples use, for
// Scripts/check-apple-availability.sh only (see Foundation.swift here).
open class XCTestCase {
    public init() { fatalError() }
    open func invokeTest() { fatalError() }
}

public func XCTAssertEqual<T: Equatable>(
    _ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {}
