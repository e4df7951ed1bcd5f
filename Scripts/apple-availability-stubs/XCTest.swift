// A stand-in for the XCTest API this package's documentation examples use, for
// Scripts/check-apple-availability.sh only (see Foundation.swift here).
open class XCTestCase {
    public init() { fatalError() }
    open func invokeTest() { fatalError() }
    open func expectation(description: String) -> XCTestExpectation { fatalError() }
    open func wait(for expectations: [XCTestExpectation], timeout seconds: Double, enforceOrder: Bool = false) {
        fatalError()
    }
}

open class XCTestExpectation: @unchecked Sendable {
    open func fulfill() { fatalError() }
}

public func XCTAssertEqual<T: Equatable>(
    _ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {}
