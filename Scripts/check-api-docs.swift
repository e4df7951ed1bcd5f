// The checks on the API reference that DocC does not make, run by Scripts/build-docs.sh
// after `docc convert`:
//
// - every public symbol declared in the sources has a doc comment;
// - every parameter of a public function, initializer or subscript is documented
//   (`- Parameter name:` or under `- Parameters:`), and a function that returns a value
//   says what (`- Returns:`). DocC checks that documented parameters exist, but says
//   nothing when a function documents none of them;
// - in each curated module, every public symbol is listed by hand in some `## Topics`
//   group, so new API is grouped by meaning instead of falling into DocC's catch-all
//   sections ("Instance Methods"...);
// - in the merged site, every page a page refers to exists. DocC checks links within
//   one archive; this catches pages dropped between archives or by curation (curating
//   every member of an extended type by hand drops the extended type's own page, which
//   the members' breadcrumbs still point to).
//
//   swift Scripts/check-api-docs.swift --work <docs-work-dir> [--curated <module>]... \
//       --catalogs <dir-of-catalogs> --site <merged-site> <module>...
//
// A curated module's catalog is <dir-of-catalogs>/<module>.docc.
//
// Reads <docs-work-dir>/symbol-graphs/<module>/*.symbols.json (what is public),
// <docs-work-dir>/archives/<module>.doccarchive (which pages a hand-written topic section
// lists; DocC marks the sections it writes itself `"generated": true`) and the render
// JSON of the merged site. Symbols the compiler synthesizes (`!=` from `Equatable`) have
// no source location and are skipped. Exits 1 after listing every problem, with the file
// and line to fix.
import Foundation

struct UsageError: Error, CustomStringConvertible {
    let description: String
}

func jsonObject(at url: URL) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
        throw UsageError(description: "\(url.path) is not a JSON object")
    }
    return object
}

/// A public symbol declared in a module's sources, as its symbol graph describes it.
struct PublicSymbol {
    let preciseIdentifier: String
    let path: [String]
    let kindIdentifier: String
    let kindName: String
    /// `file:line` of the declaration.
    let location: String
    /// The doc comment's lines, or `nil` when there is none.
    let docLines: [String]?
    /// The names a doc comment must use for the parameters (the internal names).
    let parameterNames: [String]
    /// The return type as written, or `nil` when the symbol has no function signature.
    let returnType: String?

    var link: String { "``\(path.joined(separator: "/"))``" }
}

/// The public symbols `module` declares, from its symbol graphs in `directory`.
func declaredSymbols(of module: String, in directory: URL) throws -> [PublicSymbol] {
    let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter { $0.lastPathComponent.hasSuffix(".symbols.json") }
    guard !files.isEmpty else { throw UsageError(description: "no symbol graphs in \(directory.path)") }
    var symbols: [PublicSymbol] = []
    for file in files {
        for symbol in try jsonObject(at: file)["symbols"] as? [[String: Any]] ?? [] {
            let kind = symbol["kind"] as? [String: Any] ?? [:]
            let kindIdentifier = kind["identifier"] as? String ?? ""
            guard let location = symbol["location"] as? [String: Any],  // synthesized members have none
                kindIdentifier != "swift.extension",  // an extension block, not an API
                let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String,
                let path = symbol["pathComponents"] as? [String]
            else { continue }
            let file = (location["uri"] as? String).flatMap { URL(string: $0)?.path } ?? "?"
            let line = ((location["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
            let signature = symbol["functionSignature"] as? [String: Any]
            let parameters = signature?["parameters"] as? [[String: Any]] ?? []
            let returns = (signature?["returns"] as? [[String: Any]])?.compactMap { $0["spelling"] as? String }
            // A symbol without a doc comment of its own gets the one of the requirement it
            // implements (`Hashable.hash(into:)`), which DocC does not show by default.
            let docComment = (symbol["docComment"] as? [String: Any]).flatMap { comment in
                (comment["module"] as? String).map { $0 == module } ?? true ? comment : nil
            }
            symbols.append(
                PublicSymbol(
                    preciseIdentifier: identifier, path: path, kindIdentifier: kindIdentifier,
                    kindName: kind["displayName"] as? String ?? "Symbol", location: "\(file):\(line)",
                    docLines: docComment?["lines"].map {
                        ($0 as? [[String: Any]] ?? []).map { $0["text"] as? String ?? "" }
                    },
                    parameterNames: parameters.compactMap { $0["internalName"] as? String ?? $0["name"] as? String },
                    returnType: returns?.joined()))
        }
    }
    return symbols.sorted { $0.path.lexicographicallyPrecedes($1.path) }
}

/// The parameter names a doc comment documents: `- Parameter name:` lines, and the
/// `- name:` items nested under a `- Parameters:` line.
func documentedParameters(_ lines: [String]) -> Set<String> {
    func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
    func item(_ line: String) -> Substring? {
        let trimmed = line.drop { $0 == " " }
        guard let marker = trimmed.first, "-*+".contains(marker) else { return nil }
        return trimmed.dropFirst().drop { $0 == " " }
    }
    func name(before colon: Substring) -> String? {
        guard let end = colon.firstIndex(of: ":") else { return nil }
        let name = colon[..<end].trimmingCharacters(in: .whitespaces)
        return name.isEmpty || name.contains(" ") ? nil : name
    }
    var names: Set<String> = []
    var parametersIndent: Int?
    for line in lines {
        if let open = parametersIndent {
            if let nested = item(line), indent(line) > open, let name = name(before: nested) {
                names.insert(name)
                continue
            }
            if item(line) != nil && indent(line) <= open { parametersIndent = nil }
        }
        guard let item = item(line) else { continue }
        if item.lowercased().hasPrefix("parameters:") {
            parametersIndent = indent(line)
        } else if item.hasPrefix("Parameter "), let name = name(before: item.dropFirst("Parameter ".count)) {
            names.insert(name)
        }
    }
    return names
}

/// The kinds whose parameters and return value must be documented. Operators are left
/// out: `lhs` and `rhs` need no words.
let callableKinds: Set<String> = [
    "swift.func", "swift.method", "swift.type.method", "swift.init", "swift.subscript", "swift.type.subscript",
]

/// What is missing from the doc comments of `symbols`.
func docCommentProblems(_ symbols: [PublicSymbol]) -> [String] {
    var problems: [String] = []
    for symbol in symbols {
        guard let lines = symbol.docLines, lines.contains(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        else {
            problems.append("\(symbol.location): \(symbol.kindName) \(symbol.link) has no doc comment")
            continue
        }
        guard callableKinds.contains(symbol.kindIdentifier) else { continue }
        let documented = documentedParameters(lines)
        for parameter in symbol.parameterNames where parameter != "_" && !documented.contains(parameter) {
            problems.append(
                "\(symbol.location): \(symbol.link) does not document its parameter `\(parameter)` "
                    + "(add `- Parameter \(parameter):` or an item under `- Parameters:`)")
        }
        // A subscript's summary already says what it gives, as a property's does.
        let returnsValue =
            !["swift.init", "swift.subscript", "swift.type.subscript"].contains(symbol.kindIdentifier)
            && !["", "()", "Void"].contains(symbol.returnType ?? "")
        let documentsReturn = lines.contains {
            $0.drop { $0 == " " }.range(of: #"^[-*+] +Returns:"#, options: .regularExpression) != nil
        }
        if returnsValue && !documentsReturn {
            problems.append(
                "\(symbol.location): \(symbol.link) returns `\(symbol.returnType ?? "")` but has no `- Returns:`")
        }
    }
    return problems
}

/// Every render JSON file (one per page) under `site`/data/documentation.
func renderNodes(in site: URL) throws -> [(file: URL, node: [String: Any])] {
    let data = site.appendingPathComponent("data/documentation")
    guard let walker = FileManager.default.enumerator(at: data, includingPropertiesForKeys: nil) else {
        throw UsageError(description: "no render JSON in \(data.path)")
    }
    var nodes: [(file: URL, node: [String: Any])] = []
    for case let file as URL in walker where file.pathExtension == "json" {
        nodes.append((file, try jsonObject(at: file)))
    }
    return nodes
}

/// References from a page of `site` to a documentation page the site does not have.
func brokenReferences(in site: URL) throws -> [String] {
    var missing: [String: String] = [:]  // missing page by the first page that refers to it
    for (file, node) in try renderNodes(in: site) {
        for case let reference as [String: Any] in (node["references"] as? [String: Any] ?? [:]).values {
            guard reference["type"] as? String == "topic", let url = reference["url"] as? String,
                url.hasPrefix("/documentation")
            else { continue }
            let path = String(url.prefix { $0 != "#" }).lowercased()
            let page = site.appendingPathComponent("data\(path).json").path
            if missing[path] == nil && !FileManager.default.fileExists(atPath: page) {
                missing[path] = String(file.path.dropFirst(site.path.count))
            }
        }
    }
    return missing.sorted { $0.key < $1.key }.map { "\($0.key) has no page; the site's \($0.value) refers to it" }
}

/// Public symbols of `symbols` that no hand-written topic section of `archive` lists.
func curationProblems(_ symbols: [PublicSymbol], archive: URL, catalog: String) throws -> [String] {
    var pages: [String: String] = [:]  // page URL by the precise identifier of its symbol
    var curated: Set<String> = []
    for (_, node) in try renderNodes(in: archive) {
        if let externalID = (node["metadata"] as? [String: Any])?["externalID"] as? String,
            let url = (node["identifier"] as? [String: Any])?["url"] as? String
        {
            pages[externalID] = url
        }
        for section in node["topicSections"] as? [[String: Any]] ?? [] where section["generated"] as? Bool != true {
            curated.formUnion(section["identifiers"] as? [String] ?? [])
        }
    }
    // A catalog's landing page is named after its module: ServiceRegistry.docc/ServiceRegistry.md.
    let landingPage = "\(catalog)/" + URL(fileURLWithPath: catalog).deletingPathExtension().lastPathComponent + ".md"
    return symbols.compactMap { symbol in
        if let page = pages[symbol.preciseIdentifier], curated.contains(page) { return nil }
        let parent = symbol.path.dropLast()
        let place =
            parent.isEmpty
            ? "the landing page, \(landingPage)"
            : "the Topics of ``\(parent.joined(separator: "/"))`` (its extension file in \(catalog)/Extensions/)"
        return "\(symbol.kindName) \(symbol.link) is in no Topics group: add it to \(place)"
    }
}

/// The command line: `--name value` options, then the modules.
struct Options {
    var work = "", catalogs = "", site = ""
    var curated: Set<String> = []
    var modules: [String] = []

    init(_ arguments: some Sequence<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard argument.hasPrefix("--") else {
                modules.append(argument)
                continue
            }
            guard let value = iterator.next() else { throw UsageError(description: "\(argument) needs a value") }
            switch argument {
            case "--work": work = value
            case "--curated": curated.insert(value)
            case "--catalogs": catalogs = value
            case "--site": site = value
            default: throw UsageError(description: "unknown option \(argument)")
            }
        }
        guard ![work, catalogs, site].contains(""), !modules.isEmpty else {
            throw UsageError(
                description: "usage: check-api-docs.swift --work <docs-work-dir> [--curated <module>]... "
                    + "--catalogs <dir-of-catalogs> --site <merged-site> <module>...")
        }
    }
}

func report(_ subject: String, _ problems: [String], passed: String) -> Bool {
    if problems.isEmpty {
        print("\(subject): \(passed)")
        return true
    }
    print("\(subject): \(problems.count) problem(s):")
    for problem in problems { print("  \(problem)") }
    return false
}

do {
    let options = try Options(CommandLine.arguments.dropFirst())
    let work = URL(fileURLWithPath: options.work)
    var passed = true
    for module in options.modules {
        let symbols = try declaredSymbols(of: module, in: work.appendingPathComponent("symbol-graphs/\(module)"))
        var problems = docCommentProblems(symbols)
        var checks = "doc comments"
        if options.curated.contains(module) {
            let archive = work.appendingPathComponent("archives/\(module).doccarchive")
            problems += try curationProblems(symbols, archive: archive, catalog: "\(options.catalogs)/\(module).docc")
            checks += " and Topics"
        }
        passed = report(module, problems, passed: "\(checks) cover all \(symbols.count) public symbols") && passed
    }
    let site = URL(fileURLWithPath: options.site)
    passed = report("Site", try brokenReferences(in: site), passed: "every referenced page exists") && passed
    exit(passed ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}
