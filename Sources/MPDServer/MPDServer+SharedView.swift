import Library

extension MPDServer {
    /// What the MPD server keeps of each item in its in-memory view. A view shared with another front
    /// (`mlib serve --http` beside the MPD port) is built with this schema first and the other's merged
    /// after it (`ViewSchema.merged(with:)`): the commands read the view's slots by fixed numbers.
    public static var viewSchema: ViewSchema { .mpd }

    /// A view given to `init(player:library:configuration:view:)` whose schema does not start with
    /// `viewSchema`'s slots.
    public struct ViewMismatch: Error, CustomStringConvertible {
        public var description: String { "the shared library view was not built with MPDServer.viewSchema first" }
    }
}
