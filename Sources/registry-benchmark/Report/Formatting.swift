import Foundation

/// A number with a fixed count of decimals, such as `"3.14"`.
///
/// - Parameters:
///   - value: The number.
///   - places: Digits after the point.
/// - Returns: The formatted number.
func format(_ value: Double, places: Int = 2) -> String {
    String(format: "%.\(places)f", value)
}

/// A duration given in nanoseconds, in the unit that keeps it readable (`"12.3 ns"`,
/// `"4.56 µs"`, `"7.89 ms"`), or `"—"` when missing.
///
/// - Parameter nanoseconds: The duration, or `nil`.
/// - Returns: The formatted duration.
func formatNanoseconds(_ nanoseconds: Double?) -> String {
    guard let nanoseconds else { return "—" }
    switch nanoseconds {
    case ..<100: return "\(format(nanoseconds, places: 2)) ns"
    case ..<10_000: return "\(format(nanoseconds, places: 0)) ns"
    case ..<1_000_000: return "\(format(nanoseconds / 1_000, places: 1)) µs"
    default: return "\(format(nanoseconds / 1_000_000, places: 2)) ms"
    }
}

/// A byte count in the unit that keeps it readable (`"97 B"`, `"1.2 MB"`).
///
/// - Parameter bytes: The byte count.
/// - Returns: The formatted count.
func formatBytes(_ bytes: Double) -> String {
    switch abs(bytes) {
    case ..<10_000: return "\(format(bytes, places: 0)) B"
    case ..<10_000_000: return "\(format(bytes / 1_000, places: 1)) kB"
    default: return "\(format(bytes / 1_000_000, places: 1)) MB"
    }
}

extension Int {
    /// The number with commas between thousands, such as `"10,000"`.
    var withThousandsSeparators: String {
        let digits = String(magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (self < 0 ? "-" : "") + grouped
    }
}

extension String {
    /// The string padded with spaces to `width` characters, on the right (`left: true`
    /// pads on the left, right-aligning it).
    func padded(to width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: Swift.max(0, width - count))
        return left ? padding + self : self + padding
    }
}
