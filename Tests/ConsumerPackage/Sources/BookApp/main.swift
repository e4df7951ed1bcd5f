// Docs/GettingStarted.md, steps 4 to 6 and 8, as the app target's main.swift, the way the
// page says to place them. `.ci/run` runs it and checks what it prints.

// Target BookApp, main.swift
import ServiceRegistry
import Interfaces
import Reviews
import BookDetail

let registry = ServiceRegistry()
registry.install(ReviewAssembly(), BookDetailAssembly())

// Step 5: resolve by protocol.
let detail = try registry.resolve(BookDetailService.self, argument: 42)
print(detail.render())   // Book 42: 2 reviews

let reviews: any ReviewService = try registry.resolve()   // the type can be inferred

struct NoReviews: ReviewService {
    func reviews(ofBookWithID id: Int) -> [String] { [] }
}

registry.register(ReviewService.self, name: "offline") { _ in NoReviews() }
let offlineReviews = try registry.resolve(ReviewService.self, name: "offline")

// Step 6: read the errors.
let incomplete = ServiceRegistry()
incomplete.install(BookDetailAssembly())   // forgot ReviewAssembly

do {
    _ = try incomplete.resolve(BookDetailService.self, argument: 42)
} catch {
    print(error.reason)   // notRegistered
    print(error.path)     // ["BookDetailService", "ReviewService"]
    print(error)          // the full explanation, ending with the fix
}

// Step 8: a child registry.
let offlineScreens = registry.makeChild()
offlineScreens.register(ReviewService.self) { _ in NoReviews() }

let online = try registry.resolve(BookDetailService.self, argument: 42)
let offline = try offlineScreens.resolve(BookDetailService.self, argument: 42)
// online.render() == "Book 42: 2 reviews"; offline.render() == "Book 42: 0 reviews"
print("online: \(online.render()); offline: \(offline.render())")
let counts = (reviews.reviews(ofBookWithID: 42).count, offlineReviews.reviews(ofBookWithID: 42).count)
print("reviews: \(counts.0); offline reviews: \(counts.1)")
