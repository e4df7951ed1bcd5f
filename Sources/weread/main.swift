#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The composition root's command line; all logic is in WeReadCommandLine so tests can run it.
let result = WeReadCommandLine.run(Array(CommandLine.arguments.dropFirst()))
print(result.output, terminator: "")
if !result.errorOutput.isEmpty {
    // Written to file descriptor 2 directly: the C `stderr` global is shared mutable state
    // that Swift 6 rejects, and this needs nothing more than one write.
    var message = result.errorOutput
    message.withUTF8 { bytes in
        _ = write(2, bytes.baseAddress, bytes.count)
    }
}
exit(result.exitCode.rawValue)
