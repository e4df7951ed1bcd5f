import Foundation

/// The `--json` output: an array with one object per result,
/// `{"case", "subject", "ns_per_op", "bytes_per_op", "allocs_per_op"}`, with any figure
/// that was not measured left out (a failed benchmark keeps only its names). A result
/// with a first-run figure (start-up) adds an object for it, its case suffixed `-first`.
enum JSONReport {
    /// One array element.
    struct Entry: Codable, Equatable {
        let caseName: String
        let subject: String
        let nanosecondsPerOperation: Double?
        let bytesPerOperation: Double?
        let allocationsPerOperation: Double?

        enum CodingKeys: String, CodingKey {
            case caseName = "case"
            case subject
            case nanosecondsPerOperation = "ns_per_op"
            case bytesPerOperation = "bytes_per_op"
            case allocationsPerOperation = "allocs_per_op"
        }

        /// The entry for one result, figures rounded to what the measurement can resolve.
        ///
        /// - Parameter result: A benchmark's result.
        init(_ result: BenchmarkResult) {
            caseName = result.caseName
            subject = result.subject
            nanosecondsPerOperation = result.nanosecondsPerOperation.flatMap { rounded($0.median, places: 2) }
            bytesPerOperation = result.bytesPerOperation.flatMap { rounded($0, places: 1) }
            allocationsPerOperation = result.allocationsPerOperation.flatMap { rounded($0, places: 3) }
        }

        /// The entry for a result's first run: case `<case>-first`, no allocation count.
        ///
        /// - Parameters:
        ///   - firstRun: The first-run figures.
        ///   - result: The result they belong to.
        init(firstRun: BenchmarkResult.FirstRun, of result: BenchmarkResult) {
            caseName = result.caseName + firstRunSuffix
            subject = result.subject
            nanosecondsPerOperation = rounded(firstRun.nanosecondsPerOperation, places: 2)
            bytesPerOperation = firstRun.heldBytesPerOperation.flatMap { rounded($0, places: 1) }
            allocationsPerOperation = nil
        }
    }

    /// What a first-run entry's case name ends with.
    static let firstRunSuffix = "-first"

    /// The entries for a run: one per result, plus one per first-run figure.
    ///
    /// - Parameter results: What ``runBenchmarks(options:progress:)`` returned.
    /// - Returns: The entries, in run order.
    static func entries(_ results: [BenchmarkResult]) -> [Entry] {
        results.flatMap { result in
            [Entry(result)] + (result.firstRun.map { [Entry(firstRun: $0, of: result)] } ?? [])
        }
    }

    /// Renders results as the JSON array.
    ///
    /// - Parameter results: What ``runBenchmarks(options:progress:)`` returned.
    /// - Returns: The JSON text, one object per line.
    static func render(_ results: [BenchmarkResult]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let lines = entries(results).map { entry -> String in
            // Encoding strings and finite doubles cannot fail.
            let data = (try? encoder.encode(entry)) ?? Data("{}".utf8)
            return "  " + String(decoding: data, as: UTF8.self)
        }
        return "[\n" + lines.joined(separator: ",\n") + "\n]"
    }
}

/// Rounds for display; a non-finite value (which JSON cannot carry) becomes `nil`, i.e. omitted.
private func rounded(_ value: Double, places: Int) -> Double? {
    guard value.isFinite else { return nil }
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}
