@testable import ServiceRegistry
import Testing

/// What closes and reopens the fast path (a cached singleton copied straight out of the
/// table): nothing observable through the API changes, only how fast a resolve is, so this
/// reads the package's own counter, in a process of its own where no other test opens a
/// scope or adds an observer meanwhile.
@Suite("Fast path")
struct FastPathTests {
    @Test func anOverrideScopeClosesTheFastPathUntilItsLayerGoes() async {
        await #expect(processExitsWith: .success) {
            let registry = ServiceRegistry()
            precondition(FastPath.isOpen)
            registry.withOverrides { _ in } operation: {
                precondition(!FastPath.isOpen, "the fast path stayed open inside the scope")
            }
            precondition(FastPath.isOpen, "the fast path stayed closed after the scope")
        }
    }
}
