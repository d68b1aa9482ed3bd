// swift-tools-version:6.0
//
// A package that depends on FrameOCR as a README reader's would: by path, naming only the
// `FrameOCR` product. `make dependent-package-test` (Tests/DependentPackage/run.sh) copies this
// package and the checkout into a temporary folder, the checkout as `frameocr-checkout` (another
// name than the checkout's own folder), builds it, and runs `dependent-check`, which reads an
// image file and a video: the media code (image files, video, the text detector) comes with the
// product, with no second product to name and no library to put beside the program.
//
// `package:` is the dependency's identity: for a path dependency, the name of its folder
// (lowercased), whatever the dependency's manifest calls itself.
import PackageDescription

let package = Package(
    name: "DependentPackage",
    dependencies: [.package(path: "../frameocr-checkout")],
    targets: [
        .executableTarget(
            name: "dependent-check",
            dependencies: [.product(name: "FrameOCR", package: "frameocr-checkout")],
            path: "Sources/dependent-check")
    ]
)
