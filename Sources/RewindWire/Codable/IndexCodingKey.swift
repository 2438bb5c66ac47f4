/// The coding key used for array positions in coding paths.
struct IndexCodingKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) {
        guard let i = Int(stringValue) else { return nil }
        intValue = i
    }
    init?(intValue: Int) { self.intValue = intValue }
}
