@testable import ServiceRegistry
import Testing

// The short name the registry's messages give a type is the one code outside the type
// writes: the types it is nested in, without its module. These fixtures are nested, private
// and local as an app's types are.

private enum Library {
    struct Config: Sendable {}
    struct Box<Value> { struct Inner {} }
    protocol Store: Sendable {}
    enum Library { struct Shelf {} }  // an outer type's name again: kept
    protocol Pair<Zed, Alpha> {
        associatedtype Zed
        associatedtype Alpha
    }
    struct Row<each Column> {}
    protocol Sequence {}
    struct Keyed<Key, each Value> {}
}

private protocol Labelled {}
extension Array { fileprivate struct Page {} }

@Suite struct TypeNameTests {
    @Test(arguments: [
        (Library.Config.self as Any.Type, "Library.Config"),
        (Library.Library.Shelf.self, "Library.Library.Shelf"),
        ([Library.Config].self, "Array<Library.Config>"),
        (Library.Config?.self, "Optional<Library.Config>"),
        ([String: Library.Config].self, "Dictionary<String, Library.Config>"),
        (Library.Box<Library.Config>.self, "Library.Box<Library.Config>"),
        (Library.Box<Int>.Inner.self, "Library.Box<Int>.Inner"),
        (((Library.Config) -> Int).self, "(Library.Config) -> Int"),
        (((Library.Config) async throws -> [Int]).self, "(Library.Config) async throws -> Array<Int>"),
        (Library.Config.Type.self, "Library.Config.Type"),
        ((a: Int, b: Library.Config).self, "(a: Int, b: Library.Config)"),
        ((any Library.Store).self, "Library.Store"),
        ([any Library.Store].self, "Array<Library.Store>"),
        ((any Library.Store & Labelled).self, "Labelled & Library.Store"),
        ((any Sequence<Library.Config>).self, "any Sequence<Library.Config>"),
        ([any Sequence<Int>].self, "Array<any Sequence<Int>>"),
        ([any Sequence<any Collection<Int>>].self, "Array<any Sequence<any Collection<Int>>>"),
        ((any Sequence<[String: (Int) -> Int]>).Type.self, "(any Sequence<Dictionary<String, (Int) -> Int>>).Type"),
        // In a composition the runtime writes the requirements after its last member, whichever
        // protocol they constrain; code writes them after that protocol.
        ((any Sequence<Int> & AnyObject).self, "any Sequence<Int> & AnyObject"),
        ((any Collection<Library.Config> & CustomStringConvertible).self,
            "any Collection<Library.Config> & CustomStringConvertible"),
        ([any Sequence<Int> & AnyObject].self, "Array<any Sequence<Int> & AnyObject>"),
        ((any Labelled & Sequence<Int>).self, "any Labelled & Sequence<Int>"),
        // A last member whose name ends with the constrained protocol's (`Library.Sequence`) is
        // another member.
        ((any Sequence<Int> & Library.Sequence).self, "any Sequence<Int> & Library.Sequence"),
        // With two requirements the runtime orders them by name, not as the protocol declares
        // its primary associated types (which code follows): the runtime's form stays.
        ((any Library.Pair<Int, String>).self,
            "any Library.Pair<Self.Library.Pair.Alpha == String, Self.Library.Pair.Zed == Int>"),
        ([Int].Page.self, "Array<Int>.Page"),
        // The runtime writes a parameter pack's types as `Pack{Int, Library.Config}`; code
        // writes them among the other generic arguments (an empty pack alone as `< >`:
        // `<>` reads as an operator).
        (Library.Row<Int, Library.Config>.self, "Library.Row<Int, Library.Config>"),
        (Library.Row<Library.Row<Int>>.self, "Library.Row<Library.Row<Int>>"),
        (Library.Keyed<String, Int, Bool>.self, "Library.Keyed<String, Int, Bool>"),
        (Library.Keyed<String>.self, "Library.Keyed<String>"),
        (Library.Row< >.self, "Library.Row< >"),
    ])
    func nestedTypesAreNamedWithTheTypesTheyAreNestedIn(type: Any.Type, name: String) {
        #expect(TypeName.of(type) == name)
    }

    /// What `String(describing:)` gave before, and still gives, for a type nested in nothing.
    @Test(arguments: [
        (ReviewService.self as Any.Type, "ReviewService"), (Int.self, "Int"), (String.self, "String"),
        ((String, Int).self, "(String, Int)"), ([Int].self, "Array<Int>"), (Any.self, "Any"),
        (Any.Type.self, "Any.Type"), (AnyObject.self, "AnyObject"), (Void.self, "()"),
        ((any ReviewService & Clock).self, "Clock & ReviewService"), (((Int) -> String).self, "(Int) -> String"),
        ((Int, Int).Type.self, "(Int, Int).Type"), (Result<Int, any Error>.self, "Result<Int, Error>"),
    ])
    func topLevelTypesKeepTheirNames(type: Any.Type, name: String) {
        #expect(TypeName.of(type) == name)
        #expect(TypeName.of(type) == String(describing: type))
    }

    /// A private or local type's context is an address in `String(reflecting:)`: the name
    /// leaves it out and keeps the named types around it.
    @Test func privateAndLocalTypesReadWithoutAnAddress() {
        struct Local {}
        enum LocalNamespace { struct Config {} }
        for (type, name) in [
            (Labelled.self as Any.Type, "Labelled"), (Local.self, "TypeNameTests.Local"),
            (LocalNamespace.Config.self, "TypeNameTests.LocalNamespace.Config"),
            ([Local].self, "Array<TypeNameTests.Local>"),
        ] {
            let shown = TypeName.of(type)
            #expect(shown == name)
            #expect(!shown.contains("$") && !shown.contains("unknown context"))
        }
    }

    /// A type's names are formatted once and remembered (errors and validation name the
    /// same types again and again): whichever form is asked for first, and from however
    /// many tasks at once, each form reads as it did when formatted afresh.
    @Test func rememberedNamesReadAsFormattedOnes() async {
        struct QualifiedFirst {}
        struct ShortFirst {}
        #expect(TypeName.qualified(QualifiedFirst.self) == "ServiceRegistryTests.TypeNameTests.QualifiedFirst")
        #expect(TypeName.of(QualifiedFirst.self) == "TypeNameTests.QualifiedFirst")
        #expect(TypeName.of(ShortFirst.self) == "TypeNameTests.ShortFirst")
        #expect(TypeName.qualified(ShortFirst.self) == "ServiceRegistryTests.TypeNameTests.ShortFirst")

        let types: [Any.Type] = [Library.Config.self, [Library.Config].self, (any Sequence<Int>).self, Int.self]
        let expected = types.map { (TypeName.of($0), TypeName.qualified($0)) }
        #expect(expected.map(\.0) == ["Library.Config", "Array<Library.Config>", "any Sequence<Int>", "Int"])
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var mismatches = 0
                    for _ in 0..<100 {
                        for (type, (short, qualified)) in zip(types, expected)
                        where TypeName.of(type) != short || TypeName.qualified(type) != qualified {
                            mismatches += 1
                        }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    /// What `String(reflecting:)` writes, read as code writes it: also forms this platform's
    /// runtime does not produce for the fixtures above (a private type's discriminator), and
    /// a type named like its module (`Reviews.Reviews`), which a fixture here cannot be
    /// without hiding the test module's name.
    @Test(arguments: [
        ("Reviews.Reviews.Config", "Reviews.Config"),
        ("Reviews.(Helper in _0123ABCD).Inner", "Helper.Inner"),
        ("Swift.Array<Reviews.Holder.(Helper in _99FF)>", "Array<Holder.Helper>"),
        ("(Swift.Int, Reviews.(Helper in _0123ABCD))", "(Int, Helper)"),
        ("(extension in Reviews):Swift.Array<Swift.Int>.Page", "Array<Int>.Page"),
        ("Reviews.`Weird Name`.`a b`", "`Weird Name`.`a b`"),
        ("Reviews.`Unclosed", "`Unclosed"),
        ("Reviews.`Unclosed<Swift.Int>", "`Unclosed<Int>"),
        ("@Sendable (inout Swift.Int, Reviews.Config...) -> ()", "@Sendable (inout Int, Config...) -> ()"),
        ("Reviews.Generic<Pack{Swift.Int, Reviews.Reviews.Config}>", "Generic<Pack{Int, Reviews.Config}>"),
    ])
    func runtimeFormsReadAsCodeWritesThem(reflected: String, name: String) {
        #expect(TypeName.withoutModules(reflected) == name)
    }

    /// Text a message quotes that is no Swift source (a URL, a value read from one) has
    /// only what one cannot see escaped: its quotes and backslashes stay as they are, where
    /// a string literal escapes them too.
    @Test func visibleTextKeepsQuotesAndBackslashesALiteralEscapes() {
        let text = "say \"4\u{200B}2\" \\ n"
        #expect(TypeName.visible(text) == #"say "4\u{200B}2" \ n"#)
        #expect(TypeName.literal(text) == #""say \"4\u{200B}2\" \\ n""#)
    }
}
