#if canImport(Glibc)
import Glibc
#endif

/// The slots through which one loaded shared library calls functions it imports: its
/// entries in the global offset table (GOT), found by reading the library's ELF dynamic
/// section in memory.
///
/// The Swift runtime, `libswiftCore.so`, reaches `malloc` through such a slot, and so does
/// the concurrency runtime, `libswift_Concurrency.so`, through its own. Pointing those
/// slots at a counting function for the length of a measurement is how
/// ``AllocationCounter`` sees every Swift heap allocation (objects, boxes, array and
/// dictionary storage, closure contexts, task-local items) with neither a C target nor
/// `LD_PRELOAD`. The
/// runtime's own allocation hook (`_swift_allocObject`) would be simpler, but installing it
/// crashes the Swift 6.3 Linux runtime, and it misses raw `swift_slowAlloc` allocations.
///
/// Only 64-bit ELF on x86_64 and arm64 Linux is understood; elsewhere ``find(symbols:inLibraryWithSuffix:)``
/// returns `nil` and allocation counts are simply not reported.
struct ImportSlots: Sendable {
    /// Slot addresses for each symbol that was found, as integers so the table is `Sendable`.
    let addresses: [String: [UInt]]

    /// Finds the GOT slots for `symbols` in the first loaded object whose path ends with `suffix`.
    ///
    /// - Parameters:
    ///   - symbols: The imported function names to look for, such as `malloc`.
    ///   - suffix: The end of the library's path, such as `/libswiftCore.so`. An empty
    ///     string matches the main program, whose path the loader reports as empty.
    /// - Returns: The slots found (symbols the library does not import are absent), or
    ///   `nil` when the platform or the library's layout is not one this type understands.
    static func find(symbols: Set<String>, inLibraryWithSuffix suffix: String) -> ImportSlots? {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        guard let iterate = dlsym(nil, "dl_iterate_phdr") else { return nil }
        typealias Callback = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
        typealias Iterate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Int32

        let search = Search(symbols: symbols, suffix: suffix)
        withExtendedLifetime(search) {
            _ = unsafeBitCast(iterate, to: Iterate.self)(
                { info, _, context in
                    guard let info, let context else { return 0 }
                    let search = Unmanaged<Search>.fromOpaque(context).takeUnretainedValue()
                    return search.visit(LoadedObject(info: UnsafeRawPointer(info))) ? 1 : 0
                },
                Unmanaged.passUnretained(search).toOpaque()
            )
        }
        return search.found.map(ImportSlots.init(addresses:))
        #else
        return nil
        #endif
    }
}

#if os(Linux) && (arch(x86_64) || arch(arm64))
/// The mutable state of one `dl_iterate_phdr` walk; a class so the C callback can reach it
/// through its context pointer.
private final class Search {
    let symbols: Set<String>
    let suffix: String
    var found: [String: [UInt]]?

    init(symbols: Set<String>, suffix: String) {
        self.symbols = symbols
        self.suffix = suffix
    }

    /// Returns `true` to stop the walk once the library has been read.
    func visit(_ object: LoadedObject) -> Bool {
        guard object.path.hasSuffix(suffix), suffix.isEmpty == object.path.isEmpty else { return false }
        found = object.slots(for: symbols)
        return true
    }
}

/// A view of one entry of `dl_iterate_phdr`: `struct dl_phdr_info` read at its fixed 64-bit offsets.
private struct LoadedObject {
    let bias: UInt
    let path: String
    let programHeaders: UnsafeRawPointer?
    let programHeaderCount: Int

    init(info: UnsafeRawPointer) {
        bias = info.load(as: UInt.self)
        path = info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
        programHeaders = info.load(fromByteOffset: 16, as: UnsafeRawPointer?.self)
        programHeaderCount = Int(info.load(fromByteOffset: 24, as: UInt16.self))
    }

    // ELF constants (elf.h), named here because the Glibc module does not import <elf.h>.
    private static let programHeaderSize = 56, dynamicEntrySize = 16, relocationSize = 24, symbolSize = 24
    private static let loadableDynamicSegment: UInt32 = 2  // PT_DYNAMIC
    private static let tagEnd = 0, tagPLTRelocationSize = 2, tagStringTable = 5, tagSymbolTable = 6
    private static let tagRelocations = 7, tagRelocationsSize = 8, tagPLTRelocations = 23
    #if arch(x86_64)
    private static let slotRelocationTypes: Set<UInt> = [6, 7]  // R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT
    #else
    private static let slotRelocationTypes: Set<UInt> = [1025, 1026]  // R_AARCH64_GLOB_DAT, R_AARCH64_JUMP_SLOT
    #endif

    /// Reads the dynamic section and collects the slot of every relocation against one of `symbols`.
    func slots(for symbols: Set<String>) -> [String: [UInt]]? {
        guard let programHeaders else { return nil }
        var dynamicSection: UnsafeRawPointer?
        for index in 0..<programHeaderCount {
            let header = programHeaders + index * Self.programHeaderSize
            if header.load(as: UInt32.self) == Self.loadableDynamicSegment {
                dynamicSection = UnsafeRawPointer(bitPattern: bias &+ header.load(fromByteOffset: 16, as: UInt.self))
            }
        }
        guard var entry = dynamicSection else { return nil }

        var tables: [Int: UInt] = [:]
        var tag = entry.load(as: Int.self)
        while tag != Self.tagEnd {
            tables[tag] = entry.load(fromByteOffset: 8, as: UInt.self)
            entry += Self.dynamicEntrySize
            tag = entry.load(as: Int.self)
        }
        guard let stringTable = address(tables[Self.tagStringTable]),
            let symbolTable = address(tables[Self.tagSymbolTable])
        else { return nil }

        var found: [String: [UInt]] = [:]
        let relocationTables = [
            (address(tables[Self.tagPLTRelocations]), tables[Self.tagPLTRelocationSize] ?? 0),
            (address(tables[Self.tagRelocations]), tables[Self.tagRelocationsSize] ?? 0),
        ]
        for case let (table?, byteCount) in relocationTables {
            for index in 0..<Int(byteCount) / Self.relocationSize {
                let relocation = table + index * Self.relocationSize
                let info = relocation.load(fromByteOffset: 8, as: UInt.self)
                let symbolIndex = Int(info >> 32)
                guard Self.slotRelocationTypes.contains(info & 0xffff_ffff), symbolIndex != 0 else { continue }
                let symbol = symbolTable + symbolIndex * Self.symbolSize
                let nameOffset = Int(symbol.load(as: UInt32.self))
                let name = String(cString: (stringTable + nameOffset).assumingMemoryBound(to: CChar.self))
                guard symbols.contains(name) else { continue }
                found[name, default: []].append(bias &+ relocation.load(as: UInt.self))
            }
        }
        return found
    }

    /// The loader rewrites most dynamic-section pointers to absolute addresses on Linux;
    /// a value below the load bias is still relative and gets the bias added.
    private func address(_ value: UInt?) -> UnsafeRawPointer? {
        guard let value, value != 0 else { return nil }
        return UnsafeRawPointer(bitPattern: value < bias ? value &+ bias : value)
    }
}
#endif
