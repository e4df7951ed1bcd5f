extension DependencyGraph {
    /// The graph in Graphviz DOT.
    ///
    /// A node's label gives its name, its argument type and what validation found, if
    /// anything to note, then its scope, who registered it and, for a service a parent
    /// holds, `parent registry` (or `ancestor registry 2`, and so on), as ``textTree`` does.
    ///
    /// Missing services are dashed red boxes, services that failed to build are red,
    /// registrations not checked (they take an argument and no sample argument fits) are
    /// dotted, an edge that closes a cycle is red and labelled `cycle`, and one to a service
    /// asked for with an argument type its factory does not take is dashed, red and labelled
    /// `argument mismatch`.
    public var dot: String {
        var lines = ["digraph ServiceRegistry {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
        for node in nodes {
            var label = [node.displayName]
            if let argument = node.argumentType { label.append("argument: \(argument)") }
            switch node.status {
            case .missing: label.append("MISSING")
            case .failed(let reason): label.append("FAILED: \(reason)")
            case .notChecked: label.append("not checked (no sample argument fits)")
            case .resolved: break
            }
            if let scope = node.scope {
                let parts = ["\(scope)", node.origin] + [registryName(node)].compactMap { $0 }
                label.append(parts.joined(separator: " · "))
            }
            var attributes = ["label=\"\(escape(label.joined(separator: "\n")))\""]
            switch node.status {
            case .missing: attributes += ["style=dashed", "color=red", "fontcolor=red"]
            case .failed: attributes += ["color=red", "fontcolor=red"]
            case .notChecked: attributes += ["style=dotted"]
            case .resolved: break
            }
            lines.append("  \"\(escape(node.id))\" [\(attributes.joined(separator: ", "))];")
        }
        for edge in edges {
            var attributes = ""
            if edge.isCycle {
                attributes = " [color=red, fontcolor=red, label=\"cycle\"]"
            } else if edge.isArgumentMismatch {
                attributes = " [color=red, fontcolor=red, style=dashed, label=\"argument mismatch\"]"
            }
            lines.append("  \"\(escape(edge.from))\" -> \"\(escape(edge.to))\"\(attributes);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as an indented tree for a terminal: each service that nothing depends on
    /// is a root; a subtree already printed is shown once and then referred to.
    ///
    /// ```text
    /// ✗ BookDetailService [transient, BookDetailAssembly] — FAILED: notRegistered
    /// ├── CatalogService [singleton, CatalogAssembly]
    /// └── ✗ ReviewService [singleton, ReviewAssembly] — FAILED: notRegistered
    ///     └── ✗ ReviewStore — MISSING
    /// ```
    ///
    /// A service nothing registers is `✗ Service — MISSING`, and a service that could not
    /// be built is marked `— FAILED:` with the reason, as is every service that needed it.
    /// An edge that closes a cycle ends in `↺ Service — CYCLE`; one to a service asked
    /// for with an argument type its factory does not take ends in
    /// `✗ Service (argument: String) — ARGUMENT MISMATCH` (or `(no argument)`), and the
    /// service is printed where it would be without that edge.
    public var textTree: String {
        let dependedOn = Set(edges.filter { !$0.isCycle && !$0.isArgumentMismatch }.map(\.to))
        var roots = nodes.filter { !dependedOn.contains($0.id) }
        if roots.isEmpty { roots = nodes }
        var lines: [String] = []
        var printed = Set<String>()
        for root in roots {
            render(root, prefix: "", childPrefix: "", into: &lines, printed: &printed)
        }
        // A loop whose edges were each met first as an ordinary dependency (a factory taking
        // an argument that, for some arguments only, resolves a service that resolves it
        // back) has no root of its own: its services start trees of their own.
        for node in nodes where !printed.contains(node.id) {
            render(node, prefix: "", childPrefix: "", into: &lines, printed: &printed)
        }
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }

    private func render(
        _ node: Node, prefix: String, childPrefix: String, into lines: inout [String], printed: inout Set<String>
    ) {
        let alreadyShown = printed.contains(node.id)
        let children = dependencies(of: node)
        lines.append(prefix + summary(node) + (alreadyShown && !children.isEmpty ? " (see above)" : ""))
        guard !alreadyShown else { return }
        printed.insert(node.id)
        for (index, child) in children.enumerated() {
            let isLast = index == children.count - 1
            let branch = childPrefix + (isLast ? "└── " : "├── ")
            let nextPrefix = childPrefix + (isLast ? "    " : "│   ")
            if child.edge.isCycle {
                lines.append(branch + "↺ " + child.node.displayName + " — CYCLE")
            } else if child.edge.isArgumentMismatch {
                let argument = child.node.argumentType.map { "argument: \($0)" } ?? "no argument"
                lines.append(branch + "✗ \(child.node.displayName) (\(argument)) — ARGUMENT MISMATCH")
            } else {
                render(child.node, prefix: branch, childPrefix: nextPrefix, into: &lines, printed: &printed)
            }
        }
    }

    private func summary(_ node: Node) -> String {
        let argument = node.argumentType.map { " (argument: \($0))" } ?? ""
        switch node.status {
        case .missing:
            return "✗ \(node.displayName)\(argument) — MISSING"
        case .failed(let reason):
            return "✗ \(node.displayName)\(argument) [\(details(node))] — FAILED: \(reason)"
        case .notChecked:
            return "\(node.displayName)\(argument) [\(details(node))] — not checked (no sample argument fits)"
        case .resolved:
            return "\(node.displayName)\(argument) [\(details(node))]"
        }
    }

    private func details(_ node: Node) -> String {
        ([node.scope.map(\.description) ?? "?", node.origin] + [registryName(node)].compactMap { $0 })
            .joined(separator: ", ")
    }

    /// Which registry above the one asked holds `node`; `nil` for that registry itself.
    private func registryName(_ node: Node) -> String? {
        switch node.registryLevel {
        case ...0: nil
        case 1: "parent registry"
        default: "ancestor registry \(node.registryLevel)"
        }
    }

    /// `text` for a quoted DOT string. Scalar by scalar, as Graphviz reads it: a quote or
    /// backslash that a combining mark follows is one `Character` with the mark, which
    /// compares unequal to `"` and would go out unescaped, ending the string early.
    private func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
