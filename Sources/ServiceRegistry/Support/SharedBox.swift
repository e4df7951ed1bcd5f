/// An immutable value behind one reference, so that a type holding it is one word wide.
///
/// The errors use it: every call that throws one hands it through code inlined in the
/// app's, which moves it on, and one word moves in a register where a dozen fields are
/// copied one by one (Docs/Performance.md, *Code size*). `package`, so that the router's
/// error holds its fields the same way.
package final class SharedBox<Value: Sendable>: Sendable {
    package let value: Value

    package init(_ value: Value) {
        self.value = value
    }
}
