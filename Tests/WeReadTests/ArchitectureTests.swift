import Foundation
import Testing

/// The componentization rule, read from the source files: a component may import the
/// interfaces, the registry and the platform, never another component.
@Suite struct ArchitectureTests {
    /// Every `Sources/WeRead*` folder but the interfaces: found on disk rather than listed,
    /// so a component added later is checked without anyone remembering to add it here.
    static let components: [String] = {
        let sources = packageRoot.appendingPathComponent("Sources").path
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []
        return folders.filter { $0.hasPrefix("WeRead") && $0 != "WeReadInterfaces" }.sorted()
    }()
    static let allowedInComponents: Set<String> = [
        "WeReadInterfaces", "ServiceRegistry", "Swift", "Foundation", "Synchronization",
    ]
    /// The interfaces module is the thin one: nothing but the standard library.
    static let allowedInInterfaces: Set<String> = ["Swift"]

    /// The package root, found from this file's path (`<root>/Tests/WeReadTests/...`).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The modules a Swift source imports: `import X`, `@testable import X`,
    /// `public import X`, `import struct X.Y`, `@preconcurrency import X`, and so on.
    static func importedModules(in source: String) -> [String] {
        let declarationKinds: Set<Substring> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
        var modules: [String] = []
        for line in source.split(whereSeparator: \.isNewline) {
            var words = line.split(whereSeparator: \.isWhitespace)[...]
            // Attributes and access levels may come before `import`.
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(first) {
                words = words.dropFirst()
            }
            guard words.first == "import" else { continue }
            words = words.dropFirst()
            if let kind = words.first, declarationKinds.contains(kind) { words = words.dropFirst() }
            guard let path = words.first else { continue }
            modules.append(String(path.split(separator: ".").first ?? path))
        }
        return modules
    }

    /// Every `.swift` file under `Sources/<target>`, with its text.
    static func sources(of target: String) throws -> [(file: String, text: String)] {
        let folder = packageRoot.appendingPathComponent("Sources").appendingPathComponent(target).resolvingSymlinksInPath()
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return try files.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            (url.lastPathComponent, try String(contentsOf: url, encoding: .utf8))
        }
    }

    @Test func theImportParserFindsEveryFormOfImport() {
        let source = """
            import ServiceRegistry
            @testable import weread
            public import WeReadInterfaces
            @preconcurrency internal import Foundation
            import struct WeReadReview.ReviewAssembly
              import Synchronization
            // import NotReal (a comment)
            let important = "import Nope"
            """
        #expect(
            Self.importedModules(in: source)
                == ["ServiceRegistry", "weread", "WeReadInterfaces", "Foundation", "WeReadReview", "Synchronization"])
    }

    @Test func theComponentsAreFoundOnDisk() {
        #expect(
            Set(["WeReadCatalog", "WeReadBookDetail", "WeReadReview", "WeReadReading", "WeReadBookshelf"])
                .isSubset(of: Self.components),
            "found \(Self.components)")
        #expect(!Self.components.contains("WeReadInterfaces"))
    }

    @Test(arguments: components)
    func componentImportsOnlyTheInterfacesTheRegistryAndThePlatform(component: String) throws {
        let files = try Self.sources(of: component)
        try #require(!files.isEmpty, "no sources found for \(component) under \(Self.packageRoot.path)")
        for (file, text) in files {
            let forbidden = Self.importedModules(in: text).filter { !Self.allowedInComponents.contains($0) }
            #expect(
                forbidden.isEmpty,
                "\(component)/\(file) imports \(forbidden); a component may import only \(Self.allowedInComponents.sorted()). Reach another component through its protocol in WeReadInterfaces and the registry.")
        }
    }

    /// The declarations in a Swift source that other modules can see: lines that, after
    /// any attributes (`@frozen`, `@available(*, deprecated)`...) and declaration modifiers
    /// (`final`, `nonisolated`, `private(set)`..., which Swift takes in any order), say
    /// `public`, `open` or `package`. Types, functions, variables and extensions alike.
    static func exposedDeclarations(in source: String) -> [String] {
        source.split(whereSeparator: \.isNewline).compactMap { line in
            var rest = line.drop(while: \.isWhitespace)
            while rest.hasPrefix("@") {
                // Skip the attribute's name, then its parenthesised arguments if any.
                rest = rest.dropFirst().drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
                if rest.hasPrefix("(") {
                    var depth = 0
                    var end = rest.startIndex
                    for index in rest.indices {
                        if rest[index] == "(" { depth += 1 }
                        if rest[index] == ")" { depth -= 1 }
                        if depth == 0 { end = rest.index(after: index); break }
                    }
                    rest = rest[end...]
                }
                rest = rest.drop(while: \.isWhitespace)
            }
            for word in rest.split(whereSeparator: \.isWhitespace) {
                if ["public", "open", "package"].contains(word) { return String(line.drop(while: \.isWhitespace)) }
                // `private(set)` is read as `private`; `open(book)`, a call, is no modifier.
                guard declarationModifiers.contains(word.prefix { $0 != "(" }) else { return nil }
            }
            return nil
        }
    }

    /// The modifiers that may come before a declaration's access level.
    static let declarationModifiers: Set<Substring> = [
        "final", "nonisolated", "override", "required", "convenience", "static", "class", "dynamic", "lazy",
        "mutating", "nonmutating", "indirect", "prefix", "postfix", "infix", "optional", "unowned", "weak",
        "distributed", "consuming", "borrowing", "private", "fileprivate", "internal",
    ]

    @Test func theExposedDeclarationFinderSeesEveryFormOfPublicDeclaration() {
        let source = """
            public struct SomeAssembly: ServiceAssembly {
                public init() {}
                public func assemble(into registry: ServiceRegistry) {}
            }
            @frozen public struct Leak {}
            @available(*, deprecated, message: "old") public final class Old {}
            public func helper() {}
            public extension Book {}
            package let shared = 1
            open class Base {}
            struct Internal {}
            // public struct InAComment
            let text = "public struct InAString"
            """
        #expect(
            Self.exposedDeclarations(in: source) == [
                "public struct SomeAssembly: ServiceAssembly {", "public init() {}",
                "public func assemble(into registry: ServiceRegistry) {}", "@frozen public struct Leak {}",
                "@available(*, deprecated, message: \"old\") public final class Old {}", "public func helper() {}",
                "public extension Book {}", "package let shared = 1", "open class Base {}",
            ])
    }

    /// Modifiers may come before the access level, in any order (`final public class`);
    /// a word that only looks like one (a call to `open(_:)`) is not a declaration.
    @Test(arguments: [
        ("final public class Leak {}", true),
        ("@MainActor final public class Leak {}", true),
        ("nonisolated public func leak() {}", true),
        ("override public func leak() {}", true),
        ("private(set) public var leak = 1", true),
        ("static package let leak = 1", true),
        ("@Wrappers.Injected public var leak: Int", true),
        ("private final class Hidden {}", false),
        ("private(set) var count = 0", false),
        ("open(book)", false),
    ])
    func theExposedDeclarationFinderReadsModifiersBeforeTheAccessLevel(line: String, isExposed: Bool) {
        #expect(Self.exposedDeclarations(in: line) == (isExposed ? [line] : []))
    }

    /// A component's only exposed declarations are its assembly type and that type's
    /// `init()` and `assemble(into:)`.
    @Test(arguments: components)
    func componentExposesNothingButItsAssembly(component: String) throws {
        let exposed = try Self.sources(of: component).flatMap { Self.exposedDeclarations(in: $0.text) }
        let assemblyMembers = exposed.filter { $0.hasPrefix("public init()") || $0.hasPrefix("public func assemble(into ") }
        let rest = exposed.filter { !assemblyMembers.contains($0) }
        #expect(rest.count == 1, "\(component) exposes \(rest)")
        #expect(rest.first?.contains(": ServiceAssembly") == true, "\(component) exposes \(rest)")
    }

    @Test func theInterfacesModuleImportsNothingButTheStandardLibrary() throws {
        let files = try Self.sources(of: "WeReadInterfaces")
        try #require(!files.isEmpty)
        for (file, text) in files {
            let forbidden = Self.importedModules(in: text).filter { !Self.allowedInInterfaces.contains($0) }
            #expect(forbidden.isEmpty, "WeReadInterfaces/\(file) imports \(forbidden)")
        }
    }
}
