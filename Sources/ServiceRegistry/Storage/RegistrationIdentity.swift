/// A registration's identity, kept without keeping the registration.
///
/// For what must tell registrations apart after they may have been replaced: a
/// ``ResolutionError``'s path (a factory may keep the error it threw, and a strong
/// reference would make a cycle), and an override scope's cell (re-registering its key
/// must drop the instance the registry cached, also while the scope lives on).
struct RegistrationIdentity: Sendable, CustomReflectable {
    let id: ObjectIdentifier
    /// Never read. Unowned, it keeps the registration's memory, so no registration made
    /// later takes this identity while this value exists, but not the registration.
    private unowned let registration: AnyRegistration

    init(_ registration: AnyRegistration) {
        id = ObjectIdentifier(registration)
        self.registration = registration
    }

    /// Only the identity: reflecting the reference (`dump`, a failed test expectation
    /// showing an error) would read it, which stops the program once the registration
    /// is gone.
    var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
