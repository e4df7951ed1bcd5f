import ServiceRegistry
import Synchronization
import Testing

// The zoo of types that TypeZooTests.swift sends down every path an instance can take on
// one thread, and TypeZooConcurrencyTests.swift sends through threads: each type with how
// to build its `n`-th instance and how to tell it, and the tally that counts the class
// instances inside them.

// MARK: Lifetime accounting

/// How many trackers one test case has made and destroyed.
final class LifetimeTally: Sendable {
    private let made = Atomic<Int>(0)
    private let destroyed = Atomic<Int>(0)

    /// Trackers made and not yet destroyed; negative after a double destroy.
    var live: Int { made.load(ordering: .relaxed) - destroyed.load(ordering: .relaxed) }

    func trackerWasMade() { made.add(1, ordering: .relaxed) }
    func trackerWasDestroyed() { destroyed.add(1, ordering: .relaxed) }
}

/// A class instance that a zoo value carries, counting itself in its test case's tally; its
/// serial is the build of the factory that made it.
final class Tracker: Sendable {
    let serial: Int
    private let tally: LifetimeTally

    init(_ serial: Int, _ tally: LifetimeTally) {
        self.serial = serial
        self.tally = tally
        tally.trackerWasMade()
    }

    deinit { tally.trackerWasDestroyed() }
}

// MARK: The zoo's types

/// Zero bytes.
struct Nothing {}

/// One byte.
enum Suit: UInt8 {
    case clubs, diamonds, hearts, spades
}

/// Six words with a class reference: too large for an existential's three-word inline buffer.
struct Ledger {
    let tracker: Tracker
    let a: Int, b: Int, c: Int, d: Int, e: Int

    init(_ serial: Int, _ tally: LifetimeTally) {
        tracker = Tracker(serial, tally)
        (a, b, c, d, e) = (serial, ~serial, serial &* 7, -serial, Int.max - serial)
    }

    func isBuild(_ serial: Int) -> Bool {
        tracker.serial == serial && (a, b, c, d, e) == (serial, ~serial, serial &* 7, -serial, Int.max - serial)
    }
}

/// Cases with and without payloads, two of them holding a class instance.
enum Parcel {
    case empty
    case count(Int)
    case object(Tracker)
    case pair(Tracker, String)
}

/// A non-final class, registered as itself and built as its subclass.
class Animal: @unchecked Sendable {
    // @unchecked: a non-final class cannot be checked; its one property is a constant.
    let tracker: Tracker
    init(_ tracker: Tracker) { self.tracker = tracker }
}

final class Dog: Animal, @unchecked Sendable {}

/// For an existential with a superclass constraint.
final class Collie: Animal, Named, @unchecked Sendable {
    var name: String { "collie" }
}

/// An error class: `any Error` boxes its value differently from other existentials.
final class Fault: Error {
    let tracker: Tracker
    init(_ tracker: Tracker) { self.tracker = tracker }
}

/// A class-bound protocol.
protocol Pet: AnyObject {
    var tracker: Tracker { get }
}

final class Cat: Pet {
    let tracker: Tracker
    init(_ tracker: Tracker) { self.tracker = tracker }
}

protocol Named {
    var name: String { get }
}

protocol Numbered {
    var number: Int { get }
}

/// Fits an existential's inline buffer, class reference and all.
struct Badge: Named, Numbered {
    let tracker: Tracker
    var name: String { "badge" }
    var number: Int { tracker.serial }
}

struct Ticket: Numbered {
    var number: Int { 0 }
}

/// A weak reference inside a value: copying it takes the runtime's weak-reference
/// operations, not a plain copy of its bits.
struct Watch {
    let tracker: Tracker
    weak var glance: Tracker?
}

/// The class instance `value` is, or an optional wraps, if it is one.
///
/// Not `value as AnyObject`: on Linux that makes an `any Error` the box the runtime keeps it
/// in, not the error object. Compared as identifiers, so a failed expectation does not
/// describe the objects.
func identity(of value: Any) -> ObjectIdentifier? {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
        return mirror.children.first.flatMap { identity(of: $0.value) }
    }
    guard type(of: value) is AnyObject.Type else { return nil }
    switch value {
    case let object as AnyObject: return ObjectIdentifier(object)
    default: return nil
    }
}

// MARK: Exhibits

/// One service type of the zoo, with how to build its `n`-th instance and how to tell it.
struct Exhibit<Service>: Sendable {
    let name: String
    /// Whether an instance is a class instance itself, which `.weak` can hold weakly.
    let isObject: Bool
    /// Whether every instance holds exactly one ``Tracker`` of its own.
    let isTracked: Bool
    /// Builds the instance numbered `serial`.
    let make: @Sendable (_ serial: Int, _ tally: LifetimeTally) -> Service
    /// Whether `instance` is intact and the one numbered `serial` (as far as the type can tell).
    let isBuild: @Sendable (_ instance: Service, _ serial: Int) -> Bool

    var testDescription: String { name }

    /// A factory that builds the next instance, numbered from `offset + 1`.
    func factory(
        _ tally: LifetimeTally, _ builds: Counter, offset: Int = 0
    ) -> @Sendable (borrowing Resolver) throws -> Service {
        { [make] _ in make(offset + builds.increment(), tally) }
    }

    func expect(
        _ instances: [Service], are serials: [Int], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(instances.count == serials.count, sourceLocation: sourceLocation)
        for (index, (instance, serial)) in zip(instances, serials).enumerated() {
            #expect(
                isBuild(instance, serial), "\(name): resolve \(index + 1) should be build \(serial)",
                sourceLocation: sourceLocation)
            guard isObject else { continue }
            for (other, otherSerial) in zip(instances, serials).prefix(index) where otherSerial == serial {
                #expect(
                    identity(of: instance) == identity(of: other), "\(name): one build, two objects",
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// Expects `count` instances alive, if instances are tracked.
    func expectLive(_ tally: LifetimeTally, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tally.live == (isTracked ? count : 0), "\(name): instances alive", sourceLocation: sourceLocation)
    }
}

// MARK: The zoo

/// The zoo. A `String` long enough to live on the heap; `SIMD4<Double>` is over-aligned.
enum Zoo {
    static let zeroSizeStruct = Exhibit<Nothing>(
        name: "zero-size struct", isObject: false, isTracked: false, make: { _, _ in Nothing() },
        isBuild: { _, _ in true })
    static let oneByteEnum = Exhibit<Suit>(
        name: "one-byte enum", isObject: false, isTracked: false, make: { n, _ in Suit(rawValue: UInt8(n % 4))! },
        isBuild: { $0.rawValue == UInt8($1 % 4) })
    static let sixWordStruct = Exhibit<Ledger>(
        name: "six-word struct", isObject: false, isTracked: true, make: { Ledger($0, $1) },
        isBuild: { $0.isBuild($1) })
    static let overAlignedSIMD = Exhibit<SIMD4<Double>>(
        name: "over-aligned SIMD4<Double>", isObject: false, isTracked: false,
        make: { n, _ in SIMD4(Double(n), 0.5, -Double(n), 1e300) },
        isBuild: { $0 == SIMD4(Double($1), 0.5, -Double($1), 1e300) })
    static let enumWithPayloads = Exhibit<Parcel>(
        name: "enum with payloads", isObject: false, isTracked: true,
        make: { n, tally in
            n % 2 == 1 ? .object(Tracker(n, tally)) : .pair(Tracker(n, tally), "parcel \(n) on the heap")
        },
        isBuild: { parcel, n in
            switch parcel {
            case .object(let tracker): n % 2 == 1 && tracker.serial == n
            case .pair(let tracker, let label): n % 2 == 0 && tracker.serial == n && label == "parcel \(n) on the heap"
            case .empty, .count: false
            }
        })
    static let tuple = Exhibit<(Int, Tracker, String)>(
        name: "tuple", isObject: false, isTracked: true,
        make: { n, tally in (n, Tracker(n, tally), "tuple \(n) on the heap") },
        isBuild: { $0.0 == $1 && $0.1.serial == $1 && $0.2 == "tuple \($1) on the heap" })
    static let closure = Exhibit<@Sendable () -> Int>(
        name: "closure", isObject: false, isTracked: true,
        make: { n, tally in
            let tracker = Tracker(n, tally)
            return { tracker.serial }
        },
        isBuild: { $0() == $1 })
    // `.weak` holds what the runtime takes for a class instance: a class's metatype is none
    // (on macOS too, as the runtime's casts read), and is built afresh.
    static let metatype = Exhibit<Animal.Type>(
        name: "metatype", isObject: type(of: Dog.self as Any) is AnyObject.Type, isTracked: false,
        make: { n, _ in n % 2 == 1 ? Dog.self : Animal.self },
        isBuild: { $0 == ($1 % 2 == 1 ? Dog.self : Animal.self) })
    static let existentialMetatype = Exhibit<any Numbered.Type>(
        name: "existential metatype", isObject: false, isTracked: false,
        make: { n, _ in n % 2 == 1 ? Badge.self : Ticket.self },
        isBuild: { ObjectIdentifier($0) == ObjectIdentifier($1 % 2 == 1 ? Badge.self : Ticket.self) })
    static let anyHoldingAStruct = Exhibit<Any>(
        name: "Any holding a six-word struct", isObject: false, isTracked: true, make: { Ledger($0, $1) },
        isBuild: { ($0 as? Ledger)?.isBuild($1) == true })
    static let anyObject = Exhibit<AnyObject>(
        name: "AnyObject", isObject: true, isTracked: true, make: { Cat(Tracker($0, $1)) },
        isBuild: { ($0 as? Cat)?.tracker.serial == $1 })
    static let classBoundExistential = Exhibit<any Pet>(
        name: "class-bound existential", isObject: true, isTracked: true, make: { Cat(Tracker($0, $1)) },
        isBuild: { $0.tracker.serial == $1 })
    static let existentialWithASuperclass = Exhibit<any Animal & Named>(
        name: "existential with a superclass constraint", isObject: true, isTracked: true,
        make: { Collie(Tracker($0, $1)) },
        isBuild: { $0 is Collie && $0.name == "collie" && $0.tracker.serial == $1 })
    static let anyError = Exhibit<any Error>(
        name: "any Error holding a class", isObject: true, isTracked: true, make: { Fault(Tracker($0, $1)) },
        isBuild: { ($0 as? Fault)?.tracker.serial == $1 })
    static let protocolComposition = Exhibit<any Named & Numbered>(
        name: "protocol composition", isObject: false, isTracked: true, make: { Badge(tracker: Tracker($0, $1)) },
        isBuild: { $0.number == $1 && $0.name == "badge" && ($0 as? Badge)?.tracker.serial == $1 })
    static let optional = Exhibit<Ledger?>(
        name: "optional registered as such", isObject: false, isTracked: true, make: { Ledger($0, $1) },
        isBuild: { $0?.isBuild($1) == true })
    static let optionalHoldingAClass = Exhibit<(any Pet)?>(
        name: "optional holding a class", isObject: true, isTracked: true, make: { Cat(Tracker($0, $1)) },
        isBuild: { $0?.tracker.serial == $1 })
    static let string = Exhibit<String>(
        name: "String", isObject: false, isTracked: false, make: { n, _ in "a string long enough for the heap, \(n)" },
        isBuild: { $0 == "a string long enough for the heap, \($1)" })
    static let array = Exhibit<[Ledger]>(
        name: "Array", isObject: false, isTracked: true, make: { [Ledger($0, $1)] },
        isBuild: { $0.count == 1 && $0[0].isBuild($1) })
    static let subclassAsSuperclass = Exhibit<Animal>(
        name: "subclass registered as its superclass", isObject: true, isTracked: true, make: { Dog(Tracker($0, $1)) },
        isBuild: { $0 is Dog && $0.tracker.serial == $1 })
    static let structHoldingAWeakReference = Exhibit<Watch>(
        name: "struct holding a weak reference", isObject: false, isTracked: true,
        make: { n, tally in
            let tracker = Tracker(n, tally)
            return Watch(tracker: tracker, glance: tracker)
        },
        isBuild: { $0.tracker.serial == $1 && $0.glance === $0.tracker })
}
