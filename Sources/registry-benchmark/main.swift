import Foundation

// The command line: parse, run, print. Everything else lives in functions the tests call.

do {
    let options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    if options.showsHelp {
        print(BenchmarkOptions.usage)
    } else {
        let results = runBenchmarks(options: options) { name in
            FileHandle.standardError.write(Data("running \(name)\n".utf8))
        }
        switch options.format {
        case .table: print(TableReport.render(results, options: options))
        case .json: print(JSONReport.render(results))
        }
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
