/// The tool's version, for `--version`, `serve --http`'s `/v1/version` and `/metrics`.
package enum ToolVersion {
    package static let current = "0.1.0"
}
