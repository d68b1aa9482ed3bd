#if canImport(Glibc)
    import Glibc
#endif

/// Whether this test process runs under a sanitizer (`make sanitize`), found by its runtime's
/// entry point in the process (`__asan_init`, `__tsan_init`). Under one, code runs several times
/// slower (TSan 5–15×, ASan about 2–3×) and ASan keeps freed blocks in its quarantine, so the
/// tests that bound wall time or resident memory scale those bounds; nothing else changes.
public enum Sanitizers {
    private static func present(_ symbol: String) -> Bool { dlsym(dlopen(nil, RTLD_NOW), symbol) != nil }
    /// ASan (with UBSan and LeakSanitizer): `make sanitize-address`.
    public static let address = present("__asan_init")
    /// TSan: `make sanitize-thread`.
    public static let thread = present("__tsan_init")
    /// Either one.
    public static var active: Bool { address || thread }
    /// What a bound on time or on work done within a time is scaled by: 10 under TSan, 4 under
    /// ASan, else 1.
    public static let timeScale: Double = thread ? 10 : address ? 4 : 1
    /// How many values may fall outside a bound on wall time: 2 under a sanitizer, else 0. Under
    /// one the whole process stalls now and then, every thread at once (a CI run under TSan saw a
    /// single 366 ms pause hold one `submit` and the frame in progress alike, while every other
    /// value was on time); a fault of the code under test shows in more values than that.
    public static let stallsAllowed = active ? 2 : 0
    /// Whether `values` keep to `bound` but for at most ``stallsAllowed`` of them.
    public static func mostly<T>(_ values: [T], within bound: (T) -> Bool) -> Bool {
        values.count { !bound($0) } <= stallsAllowed
    }
    /// Bytes ASan's quarantine may keep resident beyond what the code holds: its default size,
    /// 256 MiB, and that memory's shadow, an eighth more (288 MiB under ASan; else 0). A test that
    /// starts with the quarantine empty sees it fill: R20 alone grew 290 MB, 52 MB in the whole suite.
    public static let quarantineBytes = address ? (256 << 20) + (32 << 20) : 0
}
