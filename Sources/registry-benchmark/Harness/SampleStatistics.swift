/// The median and spread of a benchmark's timed samples.
///
/// The median, not the mean, because on a shared machine a sample is only ever made
/// slower by interference; the spread is the interquartile range, robust to the same.
struct SampleStatistics: Sendable, Equatable {
    /// The samples, in the order taken.
    let samples: [Double]
    /// The middle sample (the mean of the middle two for an even count).
    let median: Double
    /// The smallest sample.
    let minimum: Double
    /// The largest sample.
    let maximum: Double
    /// Half the interquartile range divided by the median: `0.03` reads "±3 %".
    let relativeSpread: Double

    /// Summarises samples.
    ///
    /// - Parameter samples: At least one sample.
    init(samples: [Double]) {
        precondition(!samples.isEmpty, "statistics need at least one sample")
        self.samples = samples
        let sorted = samples.sorted()
        median = Self.quantile(0.5, of: sorted)
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
        let interquartile = Self.quantile(0.75, of: sorted) - Self.quantile(0.25, of: sorted)
        relativeSpread = median > 0 ? interquartile / 2 / median : 0
    }

    /// Linear interpolation between closest ranks, as most statistics packages do.
    private static func quantile(_ fraction: Double, of sorted: [Double]) -> Double {
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        return sorted[lower] * (1 - weight) + sorted[upper] * weight
    }
}
