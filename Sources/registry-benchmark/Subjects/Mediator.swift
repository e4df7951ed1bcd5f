/// The seed's mediator + runtime (target-action) scheme, as close as Swift on Linux
/// allows: the caller names a target and an action as strings; the mediator builds the
/// target's type name, finds the type at run time with `_typeByName`, casts it to
/// ``MediatorTarget`` dynamically, creates a target and performs the action with an
/// untyped `[String: Any]`; the caller casts the `Any` it gets back.
///
/// Modelled on CTMediator: target classes are named `Target<Name>` (CTMediator's
/// `Target_<Name>`), a fresh target is created per call (its default, no target cache),
/// and an action is looked up by name (a `switch` standing in for `NSSelectorFromString`
/// and `performSelector:`). Nothing is registered and nothing is checked at compile time:
/// a renamed target fails only when called.
struct Mediator: Sendable {
    /// The process-wide mediator, as the scheme's callers reach it.
    static let shared = Mediator()

    /// `"<module>.Target"`: the type-name prefix of the targets it finds.
    let targetTypePrefix: String

    /// Creates a mediator that finds targets in this module.
    init() {
        // `String(reflecting:)` gives "<module>.TargetShared"; keep "<module>.Target".
        let sample = String(reflecting: TargetShared.self)
        self.init(targetTypePrefix: String(sample.dropLast("Shared".count)))
    }

    /// Creates a mediator that finds targets under another type-name prefix, such as
    /// another module's `"<module>.Target"`: which types it reaches is decided only by
    /// their names, at run time, as in the seed.
    ///
    /// - Parameter targetTypePrefix: What a target's name is appended to.
    init(targetTypePrefix: String) {
        self.targetTypePrefix = targetTypePrefix
    }

    /// Performs `action` on the target named `target`.
    ///
    /// - Parameters:
    ///   - target: The target's name without the `Target` prefix, such as `"Shared"`.
    ///   - action: The action's name, such as `"service"`.
    ///   - params: The call's parameters, untyped.
    /// - Returns: What the action returned, or `nil` when the target type is not found,
    ///   is not a ``MediatorTarget``, or has no such action.
    func perform(target: String, action: String, params: [String: Any] = [:]) -> Any? {
        guard let type = _typeByName(targetTypePrefix + target) as? any MediatorTarget.Type else { return nil }
        return type.init().perform(action: action, params: params)
    }
}

/// What the mediator calls: a class it can find by name, create, and send actions to.
protocol MediatorTarget: AnyObject {
    /// Creates a target; the mediator makes one per call.
    init()

    /// Performs the named action.
    ///
    /// - Parameters:
    ///   - action: The action's name.
    ///   - params: The call's parameters, untyped.
    /// - Returns: The action's result, or `nil` for an unknown action or wrong parameters.
    func perform(action: String, params: [String: Any]) -> Any?
}
