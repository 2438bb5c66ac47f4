import RewindWire

/// The inspector's incremental state encoding: remembers, for every collection it encoded in the last state, the
/// collection itself and its `JSONValue`, and answers the next encoding from that where the collection cannot have
/// changed.
///
/// The rules (docs/ARCHITECTURE.md, "The encoding memo", says why they are safe):
/// - Only `Array`, `ContiguousArray`, `Dictionary` and `Set` values are remembered (``MemoizableCollection``), by
///   their place in the document (JSON Pointer tokens) and type, and only when they hold at least
///   ``minimumCount`` elements.
/// - A collection at the same place, of the same type, with the same storage address and count as the one
///   remembered reuses the remembered encoding as it is, without looking inside. The remembered collection is kept
///   alive as long as it is remembered, so its storage cannot have been freed and reused, and cannot have been
///   mutated (a mutation of shared storage copies it first).
/// - A changed `Array` or `ContiguousArray` of `Equatable` elements reuses the encodings of the elements equal
///   (`==`) to the remembered collection's elements at the same positions.
/// - What was remembered under a place whose encoding is reused (a whole collection, or an equal element) stays
///   remembered, though this encoding did not visit it: so the next change deep inside an element that did not
///   change for a while still finds the collections around it (one item of one section changed: that section's
///   items reuse their encodings, instead of being encoded in full because the section was last reused whole).
///   Every remembered entry is a collection kept alive with its own encoding at that place, whichever encoding
///   remembered it, so the reuse rule above holds for it as for the others.
/// - A collection type whose values hold a class instance anywhere inside (seen by a `Mirror` walk of its first
///   non-empty value) is never reused: a class can change without its collection's storage changing. Neither is a
///   type whose first values were all empty (nothing was seen to judge it by).
///
/// What it cannot see — an `encode(to:)` that reads something other than the value (a global, a clock, the coding
/// path), an `==` that ignores encoded fields, an enum case or existential holding a class that the first value did
/// not show — the periodic comparison with a full encoding catches (``MemoChecker``).
///
/// Threading: confined to the pipeline thread (one encoding at a time). Exposed to `rewind-bench` as SPI.
@_spi(Benchmarks)
public final class StateEncodingMemo: JSONValueEncodingMemo {
    /// Collections with fewer elements are encoded each time (they cost less than a look-up).
    public let minimumCount: Int

    private struct Entry {
        let type: ObjectIdentifier
        let identity: MemoStorageIdentity
        /// Keeps the collection (so its storage) alive while the entry may be compared with.
        let collection: Any
        let encoded: JSONValue
    }

    /// One place of the document: the collection remembered there, and the places under it (by JSON Pointer token).
    /// An encoding builds a new tree of nodes; where it reuses a collection's encoding (whole, or an element of a
    /// changed array), it takes over the earlier node of that place as it is, with every place remembered under it —
    /// they were not visited, and are remembered exactly as before. A node is changed only by the encoding that
    /// made it (``generation``); one taken over from an earlier encoding is copied before anything is added under it.
    private final class Node {
        let generation: Int
        var entry: Entry?
        var children: Places

        init(generation: Int, entry: Entry? = nil, children: Places = Places()) {
            self.generation = generation
            self.entry = entry
            self.children = children
        }

        /// The node at `tokens` under this one, if there is one.
        func node(at tokens: [String]) -> Node? {
            var node = self
            for token in tokens {
                guard let child = node.children[token] else { return nil }
                node = child
            }
            return node
        }
    }

    /// The places under a node, by JSON Pointer token. Tokens that read as small array indices (`0`, `17`: no sign, no
    /// leading zero) are kept in an array, the others in a dictionary: a changed array's places are copied from the
    /// earlier encoding and then changed, and copying an array of references costs far less than re-hashing a
    /// dictionary of string keys (the same rule for every token, whatever the place is, so reading and writing agree).
    private struct Places {
        private var byIndex: [Node?] = []
        private var byKey: [String: Node] = [:]

        /// How far past the indexed places an index may go and still be kept in the array (a sparse numeric key of
        /// a dictionary goes to the dictionary instead).
        private static let indexSlack = 64

        /// The place at `token`.
        subscript(token: String) -> Node? {
            get {
                if let index = Self.index(token), index < byIndex.count, let node = byIndex[index] { return node }
                return byKey.isEmpty ? nil : byKey[token]
            }
            set {
                if let index = Self.index(token), index < byIndex.count + Self.indexSlack {
                    self[index: index] = newValue
                } else {
                    byKey[token] = newValue
                }
            }
        }

        /// The place at the array index `index` (the token `String(index)`).
        subscript(index index: Int) -> Node? {
            get {
                if index < byIndex.count, let node = byIndex[index] { return node }
                return byKey.isEmpty ? nil : byKey[String(index)]
            }
            set {
                if index < byIndex.count {
                    byIndex[index] = newValue
                } else if let newValue, index < byIndex.count + Self.indexSlack {
                    byIndex.append(contentsOf: repeatElement(nil, count: index - byIndex.count))
                    byIndex.append(newValue)
                } else {
                    byKey[String(index)] = newValue
                    return
                }
                if !byKey.isEmpty { byKey[String(index)] = nil }
            }
        }

        /// True when no place is remembered.
        var isEmpty: Bool { byKey.isEmpty && byIndex.allSatisfy { $0 == nil } }

        /// The index a token names (JSON Pointer's rule: digits only, no leading zero, so `String(index)` gives the
        /// token back).
        private static func index(_ token: String) -> Int? { JSONPointer.arrayIndex(token) }
    }

    private enum Verdict {
        /// Not a memoizable collection type.
        case ignored
        /// A memoizable collection type not judged yet (only empty values seen so far).
        case unknown
        /// Values of this type hold no class instance (as far as the walk saw).
        case reusable
        /// Values of this type hold a class instance: always encoded fully.
        case unsafe
    }

    /// What the last encoding remembered.
    private var previous = Node(generation: 0)
    /// What the encoding under way remembers.
    private var current = Node(generation: 0)
    private var generation = 0
    private var verdicts: [ObjectIdentifier: Verdict] = [:]
    private let encoder: JSONValueEncoder
    /// The encoders kept from one encoding to the next (the object layouts they learnt).
    private let workspace = JSONValueEncoderWorkspace()

    /// How the encodings so far went (for tests and benchmarks): collections reused whole.
    public private(set) var reusedWhole = 0
    /// Changed arrays whose equal elements reused their encodings.
    public private(set) var reusedElementwise = 0
    /// Collections encoded in full (changed, and not elementwise reusable).
    public private(set) var encodedFully = 0
    /// The storage bytes of the collections the last encoding found changed (not reused whole: new storage since the
    /// encoding before), as ``MemoizableCollection/memoStorageBytes`` counts them: what the copy-on-write of the
    /// change allocated, so what an earlier state held beside this one does not share with it. Collections below
    /// ``minimumCount`` elements are not counted.
    public private(set) var lastUnsharedBytes = 0
    private var unsharedBytes = 0

    /// A memo that remembers collections of at least `minimumCount` elements, encoding with `encoder` (the
    /// encoder whose whole encodings its trees must equal).
    public init(minimumCount: Int = 8, encoder: JSONValueEncoder = JSONValueEncoder()) {
        self.minimumCount = max(1, minimumCount)
        self.encoder = encoder
    }

    /// Encodes `value`, reusing what the previous call encoded where it cannot have changed; then remembers this
    /// value's collections (and lets the previous ones go). On an error nothing is remembered.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        generation &+= 1
        current = Node(generation: generation)
        unsharedBytes = 0
        do {
            let result = try encoder.encode(value, memo: self, reusing: workspace)
            lastUnsharedBytes = unsharedBytes
            previous = current
            current = Node(generation: generation)
            return result
        } catch {
            forget()
            throw error
        }
    }

    /// Lets every remembered collection go (the next encoding is a full one).
    public func forget() {
        previous = Node(generation: generation)
        current = Node(generation: generation)
    }

    /// True when the last encoding remembered at least one collection.
    public var remembersAnything: Bool { previous.entry != nil || !previous.children.isEmpty }

    /// The node of `current` at `tokens`, made (or copied from an earlier encoding's) where needed.
    private func currentNode(at tokens: [String]) -> Node {
        var node = current
        for token in tokens {
            if let child = node.children[token] {
                if child.generation == generation {
                    node = child
                } else {
                    let copy = Node(generation: generation, entry: child.entry, children: child.children)
                    node.children[token] = copy
                    node = copy
                }
            } else {
                let child = Node(generation: generation)
                node.children[token] = child
                node = child
            }
        }
        return node
    }

    /// Puts `node` (taken over from an earlier encoding) at `tokens` in `current`.
    private func takeOver(_ node: Node, at tokens: [String]) {
        guard let last = tokens.last else {
            current = Node(generation: generation, entry: node.entry, children: node.children)
            return
        }
        currentNode(at: tokens.dropLast()).children[last] = node
    }

    // MARK: JSONValueEncodingMemo

    /// See ``JSONValueEncodingMemo/handles(_:)``.
    public func handles(_ type: Any.Type) -> Bool {
        let id = ObjectIdentifier(type)
        if let verdict = verdicts[id] { return verdict != .ignored && verdict != .unsafe }
        let verdict: Verdict = type is any MemoizableCollection.Type ? .unknown : .ignored
        verdicts[id] = verdict
        return verdict != .ignored
    }

    /// See ``JSONValueEncodingMemo/encode(_:at:)``.
    public func encode<T: Encodable>(_ value: T, at site: JSONValueEncodingSite) throws -> JSONValue {
        guard let collection = value as? any MemoizableCollection, collection.memoCount >= minimumCount,
              let identity = collection.memoStorageIdentity else {
            return try site.encodeFully(value)
        }
        let type = ObjectIdentifier(T.self)
        if verdicts[type] == .unknown { judge(value) }
        guard verdicts[type] == .reusable else {
            // Not compared: counted as changed.
            unsharedBytes += collection.memoStorageBytes
            return try site.encodeFully(value)
        }
        let path = site.pathTokens
        let earlierNode = previous.node(at: path)
        let earlier = earlierNode?.entry.flatMap { $0.type == type ? $0 : nil }
        if let earlierNode, let earlier, earlier.identity == identity {
            reusedWhole += 1
            takeOver(earlierNode, at: path)
            return earlier.encoded
        }
        unsharedBytes += collection.memoStorageBytes
        if let earlierNode, let earlier, case .array(let elements) = earlier.encoded,
           let reusable = value as? any ElementwiseReusableCollection {
            // What was remembered under the elements stays, except under those that changed (their places are
            // encoded afresh) and those gone.
            let node = currentNode(at: path)
            node.children = earlierNode.children
            for index in collection.memoCount..<max(collection.memoCount, elements.count) {
                node.children[index: index] = nil
            }
            if let reused = try reusable.memoEncodeReusing(
                previous: earlier.collection, previousElements: elements, at: site,
                changed: { node.children[index: $0] = nil }) {
                reusedElementwise += 1
                node.entry = Entry(type: type, identity: identity, collection: value, encoded: reused)
                return reused
            }
            node.children = Places()
        }
        encodedFully += 1
        let encoded = try site.encodeFully(value)
        currentNode(at: path).entry = Entry(type: type, identity: identity, collection: value, encoded: encoded)
        return encoded
    }

    // MARK: Judging types

    /// Walks `value` with `Mirror` and gives a verdict to its type and to every collection type met inside it:
    /// `unsafe` for those with a class instance inside, `reusable` for the other non-empty ones.
    private func judge(_ value: Any) {
        var unsafe = Set<ObjectIdentifier>()
        var seen = Set<ObjectIdentifier>()
        var enclosing: [ObjectIdentifier] = []
        var visited = 0
        walk(value, enclosing: &enclosing, seen: &seen, unsafe: &unsafe, visited: &visited)
        for id in seen where verdicts[id] == nil || verdicts[id] == .unknown {
            verdicts[id] = unsafe.contains(id) ? .unsafe : .reusable
        }
        for id in unsafe { verdicts[id] = .unsafe }
    }

    private func walk(_ value: Any, enclosing: inout [ObjectIdentifier], seen: inout Set<ObjectIdentifier>,
                      unsafe: inout Set<ObjectIdentifier>, visited: inout Int) {
        visited += 1
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .class || type(of: value) is AnyClass {
            unsafe.formUnion(enclosing)
            return
        }
        let dynamicType = type(of: value)
        var pushed = false
        if dynamicType is any MemoizableCollection.Type, !mirror.children.isEmpty {
            let id = ObjectIdentifier(dynamicType)
            seen.insert(id)
            enclosing.append(id)
            pushed = true
        }
        for child in mirror.children {
            // The observation registrar (`_$observationRegistrar` of `@Observable` and `@ObservableState` storage)
            // holds class instances, but it is bookkeeping, left out of the recorded encoding
            // (``JSONValueEncoder/KeyStyle/observationStorage``): what it holds cannot change the encoding.
            if encoder.keyStyle == .observationStorage, let label = child.label, label.hasPrefix("_$") { continue }
            walk(child.value, enclosing: &enclosing, seen: &seen, unsafe: &unsafe, visited: &visited)
        }
        if pushed { enclosing.removeLast() }
    }
}
