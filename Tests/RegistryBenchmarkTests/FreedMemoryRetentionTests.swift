#if canImport(Glibc)
import Foundation
import Glibc
import Testing

@testable import registry_benchmark

/// The memory the process has in RAM, from `/proc/self/statm`.
private func residentBytes() -> Int {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

@Suite("Freed memory retention")
struct FreedMemoryRetentionTests {
    /// What a `register` sample does: build megabytes of small objects, then free them all
    /// after the clock stops. With the setting, the heap keeps what was freed for the next
    /// sample; without it, glibc hands most of it back to the kernel at once. In a process
    /// of its own, since the setting lasts for the process.
    @Test func aTimingRunKeepsWhatASampleFreesForTheNext() async {
        await #expect(processExitsWith: .success) {
            precondition(FreedMemoryRetention.keepFreedMemory(), "glibc refused the settings")
            // 16 MB in 80-byte chunks, as registrations are, and one 4 MB block, which
            // glibc would otherwise map for itself and unmap when freed.
            var chunks = (0..<200_000).map { _ in malloc(72) }
            let block = malloc(4 << 20)!
            memset(block, 1, 4 << 20)
            let taken = residentBytes()
            free(block)
            for chunk in chunks { free(chunk) }
            chunks = []
            let kept = residentBytes()
            precondition(kept >= taken - (1 << 20), "the heap gave back \(taken - kept) bytes when freed")
        }
    }

    /// What the sampler does before a process's first launch: hand back what earlier cases
    /// freed, although the setting keeps it otherwise, so the launch meets fresh memory.
    @Test func aFirstLaunchIsTimedAfterTheFreedMemoryIsHandedBack() async {
        await #expect(processExitsWith: .success) {
            precondition(FreedMemoryRetention.keepFreedMemory(), "glibc refused the settings")
            var chunks = (0..<200_000).map { _ in malloc(72) }
            let taken = residentBytes()
            for chunk in chunks { free(chunk) }
            chunks = []
            // Resident memory, not the arena's size: in a thread's arena glibc hands freed
            // pages back without shrinking the arena.
            let keptUntilHandedBack = residentBytes()
            FreedMemoryRetention.returnFreedMemory()
            let left = residentBytes()
            precondition(
                keptUntilHandedBack >= taken - (1 << 20),
                "the heap gave back \(taken - keptUntilHandedBack) bytes when freed")
            precondition(left <= taken - (8 << 20), "the process kept \(left) of \(taken) bytes after handing back")
        }
    }
}
#endif
