import Synchronization

/// Watches the resolves of a validation pass and builds the ``DependencyGraph`` from them.
///
/// Attached to the validation's override layer, so only resolves inside validation pay
/// for it.
final class DependencyRecorder: Sendable {
    private struct State {
        var nodes: [String: DependencyGraph.Node] = [:]
        var edges = Set<DependencyGraph.Edge>()
        /// Node ids (and the type name the node shows) by registration identity; the
        /// registrations are kept so an identity is never reused while recording.
        var ids: [ObjectIdentifier: (registration: AnyRegistration, id: String, serviceType: String)] = [:]
        /// Every id given out, so two registrations never share a node.
        var takenIDs = Set<String>()
        /// Services asked for but not registered, by an id from their full type name
        /// (which their edges lead to until ``graph`` picks the id each node shows).
        var missing: [String: MissingService] = [:]
    }

    /// A service asked for that nothing provides, under its short and its full type name.
    private struct MissingService {
        let shortNode: DependencyGraph.Node
        let qualifiedNode: DependencyGraph.Node
    }

    private let registry: ServiceRegistry
    private let state = Lock(State())
    /// Short type names that two or more registered types share (each component's
    /// `Config`): all their nodes show the full names, decided before anything is met.
    private let sharedShortNames: Set<String>
    /// The full names of the registered types, by short name.
    private let registeredFullNames: [String: Set<String>]
    /// The registrations' argument types, named so that no two read the same.
    private let argumentTypeNames: [ObjectIdentifier: String]

    init(registry: ServiceRegistry) {
        self.registry = registry
        var fullNames: [String: Set<String>] = [:]
        var argumentTypes: [ObjectIdentifier: Any.Type] = [:]
        for level in registry.lineage {
            for registration in level.table.allRegistrations + (OverrideLayer.active?.registrations(in: level) ?? []) {
                fullNames[registration.serviceTypeName, default: []].insert(registration.qualifiedServiceTypeName)
                if let argumentType = registration.argumentType {
                    argumentTypes[ObjectIdentifier(argumentType)] = argumentType
                }
            }
        }
        registeredFullNames = fullNames
        sharedShortNames = Self.shared(fullNames)
        let types = Array(argumentTypes.values)
        argumentTypeNames = Dictionary(
            uniqueKeysWithValues: zip(types.map(ObjectIdentifier.init), TypeName.distinguishing(types)))
    }

    /// The argument type of `registration` as the graph and the validation listings show
    /// it: its short name, unless another registered argument type has that name too (two
    /// components' `Config`), then its full one; `nil` for a factory without an argument.
    func argumentTypeName(of registration: AnyRegistration) -> String? {
        registration.argumentType.map { argumentTypeNames[ObjectIdentifier($0)] ?? TypeName.of($0) }
    }

    /// The recorded graph.
    ///
    /// A type shows its short name, unless another type in the graph, missing or
    /// registered, shares that name: then its full one. Which missing types exist is known
    /// only at the end, so the choice is made here, the same whichever was met first; a
    /// registered type that only a missing one shares its short name with is renamed here.
    var graph: DependencyGraph {
        state.withLock { state in
            let sharedInGraph = sharedShortNamesInGraph(state)
            func isShared(_ shortName: String) -> Bool { sharedInGraph.contains(shortName) }

            var nodes = state.nodes
            var newIDs: [String: String] = [:]
            for (key, missing) in state.missing {
                let node = isShared(missing.shortNode.serviceType) ? missing.qualifiedNode : missing.shortNode
                nodes[node.id] = node
                newIDs[key] = node.id
            }
            for (registration, id, serviceType) in state.ids.values
            where serviceType == registration.serviceTypeName && !sharedShortNames.contains(serviceType)
                && isShared(serviceType)
            {
                // The id starts with the type name (see `newID`): only that part changes.
                guard let old = nodes.removeValue(forKey: id) else { continue }
                let qualified = registration.qualifiedServiceTypeName
                let newID = qualified + id.dropFirst(serviceType.count)
                nodes[newID] = DependencyGraph.Node(
                    id: newID, serviceType: qualified, name: old.name, argumentType: old.argumentType,
                    scope: old.scope, origin: old.origin, registryLevel: old.registryLevel, status: old.status)
                newIDs[id] = newID
            }
            let edges = state.edges.map { edge in
                DependencyGraph.Edge(
                    from: newIDs[edge.from] ?? edge.from, to: newIDs[edge.to] ?? edge.to, isCycle: edge.isCycle,
                    isArgumentMismatch: edge.isArgumentMismatch)
            }
            // A factory may resolve a service with the argument its factory takes and also
            // with another, so one pair may have an ordinary edge and a mismatched one.
            return DependencyGraph(
                nodes: nodes.values.sorted { ($0.displayName, $0.id) < ($1.displayName, $1.id) },
                edges: edges.sorted {
                    ($0.from, $0.to, $0.isArgumentMismatch ? 1 : 0) < ($1.from, $1.to, $1.isArgumentMismatch ? 1 : 0)
                })
        }
    }

    /// Short type names that two or more types in the graph share, registered or missing
    /// (all of whose nodes show the full names): final once the validation pass is over.
    var shortNamesSharedInGraph: Set<String> {
        state.withLock { state in sharedShortNamesInGraph(state) }
    }

    /// ``shortNamesSharedInGraph`` from `state`: over the registered and the missing types.
    private func sharedShortNamesInGraph(_ state: State) -> Set<String> {
        var fullNames = registeredFullNames
        for missing in state.missing.values {
            fullNames[missing.shortNode.serviceType, default: []].insert(missing.qualifiedNode.serviceType)
        }
        return Self.shared(fullNames)
    }

    /// The short names that stand for two or more full names.
    private static func shared(_ fullNames: [String: Set<String>]) -> Set<String> {
        Set(fullNames.filter { $0.value.count > 1 }.keys)
    }

    /// Which registry of the one validated and its parents `registry` is (0 for the one
    /// validated), or `nil` for a registry outside them: one a factory resolves from
    /// directly (`ServiceRegistry.shared` through `@Injected`, a child it makes), whose
    /// services are not this graph's.
    private func level(of registry: ServiceRegistry) -> Int? {
        self.registry.lineage.enumerated().first { $0.element === registry }?.offset
    }

    /// Adds a node for `registration` (found in `owner`) with `status`, replacing the status
    /// a node already has only when `status` says more.
    ///
    /// - Returns: The node's id; `nil`, recording nothing, when `owner` is outside the
    ///   registry validated and its parents.
    @discardableResult
    func recordNode(_ registration: AnyRegistration, owner: ServiceRegistry, status: DependencyGraph.Status?) -> String? {
        guard let level = level(of: owner) else { return nil }
        let origin = owner.originName(registration.origin)
        return state.withLock { state in
            let id: String
            let serviceType: String
            if let known = state.ids[ObjectIdentifier(registration)] {
                (id, serviceType) = (known.id, known.serviceType)
            } else {
                (id, serviceType) = newID(for: registration, level: level, taken: state.takenIDs)
                state.ids[ObjectIdentifier(registration)] = (registration, id, serviceType)
                state.takenIDs.insert(id)
            }
            let current = state.nodes[id]
            let resolvedStatus =
                status ?? current?.status ?? (registration.key.takesNoArgument ? .resolved : .notChecked)
            state.nodes[id] = DependencyGraph.Node(
                id: id, serviceType: serviceType, name: registration.key.name,
                argumentType: argumentTypeName(of: registration), scope: registration.scope, origin: origin,
                registryLevel: level, status: current.map { Self.stronger($0.status, resolvedStatus) } ?? resolvedStatus)
            return id
        }
    }

    /// A node id for `registration` that none in `taken` has, and the type name the node
    /// shows: the short one (`Config`), or the full one (`Reviews.Config`) for a type that
    /// shares its short name with another registered type, or failing that a number.
    private func newID(
        for registration: AnyRegistration, level: Int, taken: Set<String>
    ) -> (id: String, serviceType: String) {
        let argument = argumentTypeName(of: registration).map { " <\($0)>" } ?? ""
        let suffix = (level > 0 ? " @\(level)" : "")
            + (registration.origin == Installing.overrideRegistration ? " (override)" : "")
        func id(_ serviceType: String) -> String {
            TypeName.describe(serviceType, name: registration.key.name) + argument + suffix
        }
        var serviceType = registration.serviceTypeName
        if sharedShortNames.contains(serviceType) { serviceType = registration.qualifiedServiceTypeName }
        var candidate = id(serviceType)
        var number = 2
        while taken.contains(candidate) {
            candidate = id(serviceType) + " #\(number)"
            number += 1
        }
        return (candidate, serviceType)
    }

    /// Records that the service in `parent` (if any) resolved `registration`.
    func recordEdge(to registration: AnyRegistration, owner: ServiceRegistry, below parent: UnsafePointer<ResolutionFrame>?) {
        guard let to = recordNode(registration, owner: owner, status: nil) else { return }
        addEdge(from: parent, to: to)
    }

    /// Records that the service in `parent` asked `registry` (with the override scopes
    /// `overrides`) for `key`, which nothing provides there, and failed with `error`.
    ///
    /// For `.argumentMismatch` (the type and name are registered, with other argument
    /// types), an edge marked as such to each of those registrations; otherwise a missing
    /// node and an edge to it. Nothing when `registry` is outside the one validated and its
    /// parents.
    func recordFailure(
        of key: ServiceKey, serviceType: Any.Type, in registry: ServiceRegistry, overrides: OverrideLayer?,
        below parent: UnsafePointer<ResolutionFrame>?, error: ResolutionError
    ) {
        guard level(of: registry) != nil else { return }
        if error.reason == .argumentMismatch {
            // With no service asking, there is no edge to draw; the registrations are nodes.
            guard parent != nil else { return }
            for found in registry.visibleRegistrations(overrides: overrides, of: key.service)
            where found.registration.key.name == key.name {
                guard let to = recordNode(found.registration, owner: found.owner, status: nil) else { continue }
                addEdge(from: parent, to: to, isArgumentMismatch: true)
            }
            return
        }
        func node(_ serviceType: String) -> DependencyGraph.Node {
            let argument = error.givenArgumentType.map { " <\($0)>" } ?? ""
            return DependencyGraph.Node(
                id: "\(TypeName.describe(serviceType, name: key.name))\(argument) (missing)", serviceType: serviceType,
                name: key.name, argumentType: error.givenArgumentType, scope: nil, origin: "not registered",
                registryLevel: 0, status: .missing)
        }
        let missing = MissingService(
            shortNode: node(TypeName.of(serviceType)), qualifiedNode: node(TypeName.qualified(serviceType)))
        state.withLock { state in
            state.missing[missing.qualifiedNode.id] = missing
        }
        addEdge(from: parent, to: missing.qualifiedNode.id)
    }

    /// Records that resolving `registration` below `parent` closed a cycle.
    ///
    /// Validation builds every registration as a root, so a cycle A → B → A is met once
    /// from A and once from B. The edge first seen as an ordinary dependency stays one;
    /// only the edge that closes the loop is drawn as the cycle.
    func recordCycle(at registration: AnyRegistration, below parent: UnsafePointer<ResolutionFrame>?) {
        guard let parent else { return }
        let parentRegistration = parent.pointee.registration
        state.withLock { state in
            guard let to = state.ids[ObjectIdentifier(registration)]?.id,
                let from = state.ids[ObjectIdentifier(parentRegistration)]?.id,
                !state.edges.contains(DependencyGraph.Edge(from: from, to: to))
            else { return }
            state.edges.insert(DependencyGraph.Edge(from: from, to: to, isCycle: true))
        }
    }

    /// Adds an edge from the service in `parent` to the node `id`: an ordinary one unless
    /// the same pair closed a cycle already (only the edge that closes it is drawn); one
    /// marked as an argument mismatch always, since no resolve of it closed that cycle.
    private func addEdge(from parent: UnsafePointer<ResolutionFrame>?, to id: String, isArgumentMismatch: Bool = false) {
        guard let parent else { return }
        let parentRegistration = parent.pointee.registration
        state.withLock { state in
            guard let from = state.ids[ObjectIdentifier(parentRegistration)]?.id else { return }
            let edge = DependencyGraph.Edge(from: from, to: id, isArgumentMismatch: isArgumentMismatch)
            if isArgumentMismatch || !state.edges.contains(DependencyGraph.Edge(from: from, to: id, isCycle: true)) {
                state.edges.insert(edge)
            }
        }
    }

    /// Failure beats success, so a node that failed anywhere stays marked failed.
    private static func stronger(_ old: DependencyGraph.Status, _ new: DependencyGraph.Status) -> DependencyGraph.Status {
        switch (old, new) {
        case (.failed, _): old
        case (_, .failed): new
        case (.resolved, .notChecked): old
        default: new
        }
    }
}
