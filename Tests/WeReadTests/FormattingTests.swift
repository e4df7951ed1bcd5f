import Testing

@testable import weread

/// The formats weread prints in more than one place, checked at their edges: the session's
/// and the reading screen's cases only show one value each ("3 h 24 min", a masked timing).
@Suite struct FormattingTests {
    /// Minutes under an hour as `42 min`; from 60 on as hours and two-digit minutes, as the
    /// doc comment shows (`3 h 05 min`).
    @Test(arguments: [
        (0, "0 min"), (59, "59 min"), (60, "1 h 00 min"), (61, "1 h 01 min"), (185, "3 h 05 min"),
        (204, "3 h 24 min"), (600, "10 h 00 min"),
    ])
    func aDurationIsMinutesUnderAnHourAndHoursWithTwoDigitMinutesFromOne(minutes: Int, text: String) {
        #expect(TextLayout.duration(minutes: minutes) == text)
    }

    /// The session's timings are masked in its transcript test, since they differ on every
    /// run; the conversion itself is exact: whole microseconds, cut, never another unit.
    @Test(arguments: [
        (Duration.zero, "0 µs"), (.nanoseconds(41_999), "41 µs"), (.microseconds(140), "140 µs"),
        (.milliseconds(1_500), "1500000 µs"), (.seconds(2), "2000000 µs"),
    ])
    func aTimingIsInWholeMicroseconds(duration: Duration, text: String) {
        #expect(ScriptedSession.microseconds(duration) == text)
    }
}
