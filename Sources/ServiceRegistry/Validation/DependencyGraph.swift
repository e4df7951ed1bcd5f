/// What depends on what, as ``ServiceRegistry/validate()`` or
/// ``ServiceRegistry/validate(sampleArguments:)`` observed it.
///
/// Nodes are registrations (and services that were asked for but are missing); an edge
/// from A to B means A's factory resolved B through its resolver, or asked for B with an
/// argument type B's factory does not take (``Edge/isArgumentMismatch``). A factory that
/// resolves B through the registry directly (or through ``Injected``) starts a resolve of
/// its own, which no edge links to A. Render it with ``dot`` for Graphviz or ``textTree``
/// for a terminal.
///
/// ```swift
/// let graph = registry.dependencyGraph()
/// print(graph.textTree)
/// print(graph.dot)   // saved as wiring.dot, then: dot -Tsvg wiring.dot > wiring.svg
/// ```
public struct DependencyGraph: Sendable, CustomStringConvertible {
    /// A service in the graph.
    public struct Node: Hashable, Sendable, Identifiable {
        /// Stable within one graph: type, name and argument type, and where it was found.
        public let id: String
        /// The service type as code outside it writes it, such as `ReviewService` or
        /// `Catalog.Config`; with its module when another type in the graph shares that name.
        public let serviceType: String
        /// The registration name, if any.
        public let name: String?
        /// The factory's argument type, if it takes one, written as ``serviceType`` is;
        /// with its module when another registered argument type shares that name.
        public let argumentType: String?
        /// The registration's scope; `nil` for a missing service.
        public let scope: Scope?
        /// Who registered it: an assembly's type name, `registered directly`, or `override`;
        /// `not registered` for a missing service.
        public let origin: String
        /// Which registry holds it: 0 for the registry asked, 1 for its parent, and so on.
        public let registryLevel: Int
        /// What validation found.
        public let status: Status

        /// `ReviewService` or `ReviewService (name: "offline")`.
        public var displayName: String { TypeName.describe(serviceType, name: name) }
    }

    /// What validation found for a node.
    public enum Status: Hashable, Sendable {
        /// It was built in isolation without error (with a sample argument, if it takes one).
        case resolved
        /// Building it failed for this reason (the error is in ``ValidationError``).
        case failed(ResolutionError.Reason)
        /// Nothing is registered for it, but something asked for it. (A service registered
        /// with other argument types than the one asked for is not missing: the edge to it
        /// is marked ``Edge/isArgumentMismatch``.)
        case missing
        /// Its factory takes an argument and no sample argument fits it, so validation did
        /// not build it on its own; its dependencies show only if a factory that validation
        /// built resolved it with an argument. Pass a sample of its ``Node/argumentType`` to
        /// ``ServiceRegistry/dependencyGraph(sampleArguments:)`` to see them.
        case notChecked
    }

    /// An edge: `from`'s factory resolved `to` through its resolver.
    public struct Edge: Hashable, Sendable {
        /// The ``Node/id`` of the dependent service.
        public let from: String
        /// The ``Node/id`` of the dependency.
        public let to: String
        /// Whether resolving `to` here closed a dependency cycle.
        public let isCycle: Bool
        /// Whether `from`'s factory asked for `to`'s type and name with an argument type
        /// that `to`'s factory does not take (or with none when it takes one, or with one
        /// when it takes none), so the resolve threw
        /// ``ResolutionError/Reason/argumentMismatch``. A type and name registered with
        /// several argument types gets such an edge to each of them.
        public let isArgumentMismatch: Bool

        init(from: String, to: String, isCycle: Bool = false, isArgumentMismatch: Bool = false) {
            self.from = from
            self.to = to
            self.isCycle = isCycle
            self.isArgumentMismatch = isArgumentMismatch
        }
    }

    /// Every node, sorted by service type and name.
    public let nodes: [Node]
    /// Every edge, sorted.
    public let edges: [Edge]
    /// The index in ``nodes`` of each node, by id.
    private let nodeIndices: [String: Int]
    /// The indices in ``edges`` of each node's edges, by the id they lead from.
    private let edgeIndices: [String: [Int]]

    init(nodes: [Node], edges: [Edge]) {
        self.nodes = nodes
        self.edges = edges
        nodeIndices = Dictionary(nodes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        edgeIndices = Dictionary(grouping: edges.indices) { edges[$0].from }
    }

    /// The node with `id`.
    ///
    /// - Parameter id: A ``Node/id``, such as an ``Edge/from`` or ``Edge/to``.
    /// - Returns: The node, or `nil` when this graph has none with that id.
    public func node(_ id: String) -> Node? {
        nodeIndices[id].map { nodes[$0] }
    }

    /// The nodes `node` depends on, with the edges that lead to them.
    ///
    /// - Parameter node: A node of this graph.
    /// - Returns: The edges from `node`, in the order of ``edges``, each with the node it
    ///   leads to.
    public func dependencies(of node: Node) -> [(edge: Edge, node: Node)] {
        (edgeIndices[node.id] ?? []).compactMap { index in
            let edge = edges[index]
            return self.node(edge.to).map { (edge, $0) }
        }
    }

    /// The ``textTree`` rendering.
    public var description: String { textTree }
}
