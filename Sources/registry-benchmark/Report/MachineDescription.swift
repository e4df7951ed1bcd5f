import Foundation

/// The machine and build a run happened on, for the report's header.
struct MachineDescription: Sendable {
    /// The CPU model from `/proc/cpuinfo`, or `"unknown CPU"`.
    let cpuModel: String
    /// Processors available to the process.
    let processorCount: Int
    /// `"release"` or `"debug"`: debug figures are not worth reading.
    let buildConfiguration: String
    /// The operating system, as Foundation reports it.
    let operatingSystem: String

    /// The machine this process runs on.
    static var current: MachineDescription {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuInfo.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        return MachineDescription(
            cpuModel: model ?? "unknown CPU",
            processorCount: ProcessInfo.processInfo.activeProcessorCount,
            buildConfiguration: configuration,
            operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString)
    }
}
