/// Owns (or borrows with a deallocator) the memory behind one or more `PixelBuffer` values.
final class PixelStorage: @unchecked Sendable {
    let owned: UnsafeMutableRawPointer?
    let byteCount: Int
    let deallocator: (@Sendable () -> Void)?

    init(owned: UnsafeMutableRawPointer?, byteCount: Int = 0, deallocator: (@Sendable () -> Void)?) {
        self.owned = owned
        self.byteCount = byteCount
        self.deallocator = deallocator
    }

    deinit {
        owned?.deallocate()
        deallocator?()
    }
}

struct Plane {
    var baseAddress: UnsafeMutableRawPointer
    var bytesPerRow: Int
    var width: Int
    var height: Int
}

/// Up to three planes inline (no array allocation per buffer).
struct PlaneSet {
    private var p0: Plane?
    private var p1: Plane?
    private var p2: Plane?
    private(set) var count = 0

    mutating func append(_ p: Plane) {
        switch count {
        case 0: p0 = p
        case 1: p1 = p
        default: p2 = p
        }
        count += 1
    }

    subscript(i: Int) -> Plane {
        precondition(i >= 0 && i < count, "plane \(i) outside 0..<\(count)")
        switch i {
        case 0: return p0!
        case 1: return p1!
        default: return p2!
        }
    }
}
