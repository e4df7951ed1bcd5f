/// How readers rated a book, in aggregate.
public struct RatingSummary: Hashable, Sendable, CustomStringConvertible {
    /// How many reviews the summary covers.
    public let reviewCount: Int
    /// The sum of all stars given, so the average can be shown without rounding twice.
    public let totalStars: Int

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - reviewCount: How many reviews the summary covers.
    ///   - totalStars: The sum of all stars given.
    public init(reviewCount: Int, totalStars: Int) {
        self.reviewCount = reviewCount
        self.totalStars = totalStars
    }

    /// The mean rating, or `nil` when nobody has reviewed the book yet.
    public var average: Double? {
        reviewCount == 0 ? nil : Double(totalStars) / Double(reviewCount)
    }

    /// The average with one decimal and the count, such as `4.3★ from 3 reviews`,
    /// or `no reviews yet`.
    ///
    /// Formatted by hand because the interfaces module does not import Foundation.
    public var description: String {
        guard reviewCount > 0 else { return "no reviews yet" }
        // Tenths, rounded half up, computed in integers so no floating-point formatting is needed.
        let tenths = (totalStars * 20 + reviewCount) / (reviewCount * 2)
        let noun = reviewCount == 1 ? "review" : "reviews"
        return "\(tenths / 10).\(tenths % 10)★ from \(reviewCount) \(noun)"
    }
}
