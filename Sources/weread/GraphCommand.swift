import ServiceRegistry

/// `weread graph` and `weread graph --dot`: the app's wiring, drawn from the registry.
struct GraphCommand {
    let registry: ServiceRegistry

    /// Prints the dependency graph as a tree, or as Graphviz DOT.
    ///
    /// Drawing the graph builds each service once, in isolation, to see what its factory
    /// resolves; services that take an argument (the detail screen) are listed but not
    /// built, because no argument is at hand.
    func run(dot: Bool) -> CommandResult {
        let graph = registry.dependencyGraph()
        // Both renderings end with a newline already. DOT stays pure so it can be piped
        // into Graphviz; the tree, read by a person, says what it could not draw.
        guard !dot else { return CommandResult(output: graph.dot) }
        let unchecked = graph.nodes.filter { $0.status == .notChecked }.map(\.displayName)
        guard !unchecked.isEmpty else { return CommandResult(output: graph.textTree) }
        return CommandResult(
            output: graph.textTree + "\n"
                + "Not drawn: what \(TextLayout.list(unchecked)) \(unchecked.count == 1 ? "depends" : "depend") on. "
                + "\(unchecked.count == 1 ? "It takes" : "They take") a resolve argument, "
                + "so drawing the graph cannot build \(unchecked.count == 1 ? "it" : "them").\n")
    }
}
