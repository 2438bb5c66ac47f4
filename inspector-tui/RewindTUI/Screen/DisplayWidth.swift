/// How many terminal columns text occupies, without libc's `wcwidth`.
///
/// Rules (chosen to agree with glibc's `wcwidth` in a UTF-8 locale, which ncurses and tmux use):
/// - control characters have width 0 (the screen buffer never stores them; it shows them as visible escapes such as `\x1B`);
/// - combining and enclosing marks, format characters (zero-width joiner, variation selectors, …) and Hangul
///   medial/final jamo have width 0;
/// - East Asian Wide and Fullwidth characters (CJK, Hangul syllables, fullwidth forms, …) and emoji with emoji
///   presentation have width 2;
/// - everything else, including East Asian Ambiguous characters (`…`, `→`, box drawing), has width 1.
///
/// A `Character` (grapheme cluster) takes the width of its first non-zero-width scalar: a base letter with
/// combining accents is 1, an emoji with modifiers or joined by ZWJ is the width of its first emoji.
/// Pure functions: safe from any thread.
package enum DisplayWidth {
    /// The width of one Unicode scalar: 0, 1 or 2.
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return 1 }
        if isWide(value) { return 2 }
        if isZeroWidth(scalar) { return 0 }
        return 1
    }

    /// The width of one grapheme cluster: the width of its first scalar that is not zero-width (0 when all are).
    package static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        if first.value >= 0x20 && first.value < 0x7F { return 1 }
        for scalar in scalars {
            let width = of(scalar)
            if width > 0 { return width }
        }
        return 0
    }

    /// The width of a string: the sum of its characters' widths.
    package static func of<S: StringProtocol>(_ text: S) -> Int {
        var asciiWidth = 0
        for byte in text.utf8 {
            if byte >= 0x80 { return slowWidth(text) }
            if byte >= 0x20 && byte != 0x7F { asciiWidth += 1 }
        }
        return asciiWidth
    }

    private static func slowWidth<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value >= 0x1160 && value <= 0x11FF { return true }  // Hangul jungseong/jongseong (conjoining)
        if value == 0x200B { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return true
        default:
            return false
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        if value < 0x1100 { return false }
        // Binary search over the sorted, non-overlapping ranges.
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        if value >= 0x2300, let scalar = Unicode.Scalar(value) {
            return scalar.properties.isEmojiPresentation
        }
        return false
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks, condensed from Unicode's EastAsianWidth.txt. Emoji with
    /// emoji presentation outside these blocks are found through `isEmojiPresentation`.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x3247,    // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK strokes, …
        0x3250...0x4DBF,    // enclosed CJK, CJK compatibility, CJK extension A
        0x4E00...0xA4CF,    // CJK unified ideographs, Yi
        0xA960...0xA97F,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut, Khitan
        0x1AFF0...0x1B2FF,  // Kana extended/supplement, Nushu
        0x1F200...0x1F202,  // enclosed ideographic supplement
        0x1F210...0x1F23B,
        0x1F240...0x1F248,
        0x1F250...0x1F251,
        0x20000...0x2FFFD,  // CJK extensions B–F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extensions G–H
    ]
}
