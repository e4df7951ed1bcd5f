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

    /// These samples' time over a baseline's, taken round by round: the median, over the
    /// rounds, of this benchmark's sample divided by the baseline's sample of the same round.
    ///
    /// The ``Sampler`` takes one sample of every benchmark a round, so the two samples of a
    /// round were taken at most a round apart (about two seconds in a full run; tens of
    /// milliseconds for two subjects of one case), and a slow stretch of the shared machine
    /// that slows one mostly slows the other too: their quotient cancels it, where the
    /// quotient of the two medians, which may come from different rounds, keeps it
    /// (Docs/Performance.md, *Ratios round by round*). Where the two have different numbers
    /// of samples, which were not taken side by side, or a baseline sample took no
    /// measurable time, it is the quotient of the medians.
    ///
    /// - Parameter baseline: The baseline's statistics, from the same run.
    /// - Returns: The ratio, or `nil` when the baseline took no measurable time.
    func ratio(over baseline: SampleStatistics) -> Double? {
        guard samples.count == baseline.samples.count, baseline.minimum > 0 else {
            return baseline.median > 0 ? median / baseline.median : nil
        }
        let ratios = zip(samples, baseline.samples).map { mine, theirs in mine / theirs }
        return SampleStatistics(samples: ratios).median
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
