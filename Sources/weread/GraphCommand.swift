import ServiceRegistry

/// `weread graph` and `weread graph --dot`: the app's wiring, drawn from the registry.
struct GraphCommand {
    let registry: ServiceRegistry

    /// Prints the dependency graph as a tree, or as Graphviz DOT.
    ///
    /// Drawing the graph builds each service once, in isolation, to see what its factory
    /// resolves; a service that takes an argument (the detail screen) is built with a
    /// sample from ``WeReadApp/sampleArguments``, and listed but not built if that has no
    /// value of its argument type.
    func run(dot: Bool) -> CommandResult {
        let graph = registry.dependencyGraph(sampleArguments: WeReadApp.sampleArguments)
        // Both renderings end with a newline already. DOT stays pure so it can be piped
        // into Graphviz; the tree, read by a person, says what it could not draw.
        guard !dot else { return CommandResult(output: graph.dot) }
        let unchecked = graph.nodes.filter { $0.status == .notChecked }
        guard !unchecked.isEmpty else { return CommandResult(output: graph.textTree) }
        let services = unchecked.map(\.displayName)
        let types = Array(Set(unchecked.compactMap(\.argumentType))).sorted().map { "`\($0)`" }
        let one = unchecked.count == 1
        return CommandResult(
            output: graph.textTree + "\n"
                + "Not drawn: what \(TextLayout.list(services)) \(one ? "depends" : "depend") on. "
                + "\(one ? "It takes a resolve argument" : "They take resolve arguments") (\(TextLayout.list(types))), "
                + "and WeReadApp.sampleArguments has no value of \(types.count == 1 ? "that type" : "those types") "
                + "to build \(one ? "it" : "them") with.\n")
    }
}
