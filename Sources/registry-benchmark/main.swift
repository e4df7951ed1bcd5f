import Foundation

// The command line: parse, run, print. Everything else lives in functions the tests call.

do {
    let options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    if options.showsHelp {
        print(BenchmarkOptions.usage)
    } else {
        let results = runBenchmarks(options: options) { step in
            FileHandle.standardError.write(Data("\(step)\n".utf8))
        }
        let outcome = RunOutcome(results, options: options)
        print(outcome.output)
        if let errors = outcome.errors {
            FileHandle.standardError.write(Data("\(errors)\n".utf8))
        }
        exit(outcome.status)
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
