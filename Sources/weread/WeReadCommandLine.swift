import ServiceRegistry

/// Runs the `weread` executable's commands and returns what to print, so that everything
/// but the actual printing and exiting can be tested.
enum WeReadCommandLine {
    /// Parses `arguments` and runs the command on a fresh registry with every component.
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the executable's name.
    ///   - install: Installs the components into the new registry the command runs against;
    ///     ``WeReadApp/install(into:)`` by default. The scripted session times and watches
    ///     it, as the app's launch.
    /// - Returns: What to print and the exit status.
    static func run(
        _ arguments: [String], install: @escaping (ServiceRegistry) -> Void = WeReadApp.install(into:)
    ) -> CommandResult {
        func makeRegistry() -> ServiceRegistry { WeReadApp.makeRegistry(install: install) }
        let command: Command
        do {
            command = try CommandLineParser.parse(arguments)
        } catch {
            return .failure(error.description, .usage)
        }
        switch command {
        case .help:
            return .success(HelpText.lines)
        case .session:
            do {
                return .success(try ScriptedSession(install: install).run())
            } catch {
                return .failure("weread: the scripted session failed; the app is wired wrong.\n\(error)", .software)
            }
        case .open(let id):
            return CatalogCommands(registry: makeRegistry()).open(id)
        case .reviews(let id):
            return CatalogCommands(registry: makeRegistry()).reviews(id)
        case .search(let text):
            return CatalogCommands(registry: makeRegistry()).search(text)
        case .graph(let dot):
            return GraphCommand(registry: makeRegistry()).run(dot: dot)
        case .openURL(let url):
            return openURL(url, registry: makeRegistry())
        }
    }

    /// Runs the router's `openURLCommand(_:registry:)` (in `OpenURLCommand.swift`): a screen
    /// goes to standard output, a failure to standard error with its exit status.
    private static func openURL(_ url: String, registry: ServiceRegistry) -> CommandResult {
        let (text, status) = openURLCommand(url, registry: registry)
        let exitCode = CommandResult.ExitCode(rawValue: status) ?? .software
        guard exitCode == .success else { return .failure(text, exitCode) }
        return .success([text])
    }
}
