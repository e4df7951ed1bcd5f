// Docs/GettingStarted.md, step 2, as its own module: the walk-through's code compiled
// across the module boundaries the page draws, where access levels matter.
// DocumentationExamplesTests' GettingStartedModulesTests checks that this file has every
// line of the page's "Module Interfaces" block.

// Module Interfaces: protocols and plain values only.
public protocol ReviewService: Sendable {
    func reviews(ofBookWithID id: Int) -> [String]
}

public protocol BookDetailService: Sendable {
    var bookID: Int { get }
    func render() -> String
}
