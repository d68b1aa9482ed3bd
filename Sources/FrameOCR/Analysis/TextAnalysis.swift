/// What `focr_auto_analyze` measured in an upright gray image: polarity per region, the light
/// on the paper, and the size and shape of the text (``AutomaticPreprocessing``'s measurements).
///
/// A Swift mirror of the shim's `focr_text_analysis` (`include/focr_auto.h`), made in
/// `Bridge/Shim+Analysis.swift`; the scalar types are the shim's, so every comparison the
/// decisions make is the one the measurement was tuned with. Sizes are pixels of the analysed
/// image; gray levels 0…255.
struct TextAnalysis: Hashable, Sendable {
    /// The polarity grid: `tilesX` × `tilesY` regions.
    var tilesX = 0
    var tilesY = 0
    /// Regions with light text on a dark background (inverted in the normalized image).
    var invertedRegions = 0
    /// Regions with a dark background, text or not.
    var darkRegions = 0
    /// Text-like connected components after polarity.
    var components = 0
    /// Median height of the text-like components at least half as tall as their 90th
    /// percentile; 0 when there are none.
    var textHeight: Float = 0
    /// The 75th percentile of those heights.
    var textHeightP75: Float = 0
    /// Median width / height of the components counted in `textHeight`.
    var textAspect: Float = 0
    /// Text-like components touching the image's border.
    var edgeComponents = 0
    /// Otsu's between-class distance, |mean(ink) − mean(paper)|, 0…255.
    var contrast: Float = 0
    /// The regions' paper brightness, 90th minus 10th percentile: uneven light when large.
    var backgroundSpread: Float = 0
    /// Otsu's threshold of the normalized image, 0…255.
    var threshold: Float = 0
    /// Regions with marks (5 % of their pixels 40 levels below their paper).
    var markedRegions = 0
    /// Marked regions whose marks and paper lie on one side of `threshold`.
    var lostRegions = 0
    /// Rows the text spans (the 10th percentile of the tops to the 90th of the bottoms of the
    /// components counted in `textHeight`): a single line's height whatever its crop's margins;
    /// 0 when there are none.
    var inkBand: Float = 0

    /// The number of polarity regions.
    var regions: Int { tilesX * tilesY }
}
